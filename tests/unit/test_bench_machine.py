"""The benchmark's record of what the machine did beside a measurement (benchmarks/machine.py),
read from a /proc tree laid out as Linux lays it out."""

from pathlib import Path

from benchmarks import machine


def _proc(root: Path, faults: int, refaults: int, threads: dict[int, tuple[str, int]]) -> Path:
    root.mkdir(exist_ok=True)
    (root / "vmstat").write_text(
        f"nr_free_pages 12\npgmajfault {faults}\nworkingset_refault_file {refaults}\n"
    )
    for pid, (name, ns) in threads.items():
        folder = root / str(pid)
        folder.mkdir(exist_ok=True)
        (folder / "comm").write_text(name + "\n")
        (folder / "schedstat").write_text(f"{ns} 0 0\n")
    (root / "self").mkdir(exist_ok=True)  # not a process id: passed over
    return root


def test_the_counts_come_from_vmstat_and_the_reclaim_threads(tmp_path):
    proc = _proc(
        tmp_path / "proc",
        1_000,
        50,
        {83: ("kdamond.0", 2_000_000), 84: ("kdamond.1", 500_000), 90: ("python", 9_999)},
    )
    assert machine.counts(proc) == machine.Counts(1_000, 50, 2_500_000)


def test_since_is_what_happened_between_two_readings(tmp_path):
    proc = tmp_path / "proc"
    before = machine.counts(_proc(proc, 1_000, 50, {83: ("kdamond.0", 2_000_000)}))
    after = machine.counts(_proc(proc, 1_250, 80, {83: ("kdamond.0", 9_500_000)}))
    assert after.since(before) == {"major_faults": 250, "refaults": 30, "reclaim_cpu_ms": 7.5}


def test_a_process_that_ends_while_read_is_left_out(tmp_path):
    proc = _proc(tmp_path / "proc", 7, 0, {83: ("kdamond.0", 1_000)})
    (proc / "91").mkdir()  # its files already gone
    assert machine.counts(proc).reclaim_cpu_ns == 1_000


def test_without_proc_everything_is_zero(tmp_path):
    assert machine.counts(tmp_path / "nowhere") == machine.Counts()


def test_this_machine_can_be_read():
    now = machine.counts()
    assert now.major_faults >= 0 and now.reclaim_cpu_ns >= 0
    assert now.since(now) == {"major_faults": 0, "refaults": 0, "reclaim_cpu_ms": 0.0}


def test_processes_are_found_by_the_start_of_their_name(tmp_path):
    proc = _proc(
        tmp_path / "proc",
        0,
        0,
        {10: ("postgres", 1), 11: ("postmaster", 1), 12: ("python", 1), 13: ("kdamond.0", 1)},
    )
    found = {entry.name for entry in machine.processes_named(("postgres", "postmaster"), proc)}
    assert found == {"10", "11"}
    assert [entry.name for entry in machine.processes_named(("kdamond",), proc)] == ["13"]
    assert list(machine.processes_named(("postgres",), tmp_path / "nowhere")) == []
