"""The round calculator page, driven through Streamlit's AppTest."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptools import entry_key, shown

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "calculator.py")


def _calculator() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception
    return at


def _type(at: AppTest, hands: list[str], caller: str | None, call: str | None = "dutch"):
    for index, text in enumerate(hands):
        at.text_input(key=entry_key(at, f"calc_round_hand_{index}")).input(text)
    if caller is not None:
        at.pills(key=entry_key(at, "calc_round_caller")).set_value(caller)
    if call is not None:
        at.segmented_control(key=entry_key(at, "calc_round_call_type")).set_value(call)
    at.run()
    assert not at.exception


def _fill(at: AppTest, hands: list[str], caller: str, call: str = "dutch", penalty: str = ""):
    """Type a round and tap Score (the penalty once its field has appeared)."""
    _type(at, hands, caller, call)
    if penalty:
        at.text_input(key=entry_key(at, "calc_round_penalty")).input(penalty)
    at.button(key=entry_key(at, "calc_round_save")).click()
    at.run()
    assert not at.exception


def _preview(at: AppTest) -> str:
    return " ".join(shown(block.value) for block in at.markdown)


def _scores(at: AppTest) -> dict[str, int]:
    frame = at.dataframe[0].value
    return dict(zip(frame["Player"], frame["Round score"], strict=True))


def test_a_successful_call_scores_every_hand_as_it_is():
    """Worked example 1: the caller is lowest and draws nothing."""
    at = _calculator()
    _fill(at, ["AH 2C", "10", "7", "25"], "Ann")
    assert _scores(at) == {"Ann": 3, "Ben": 10, "Cleo": 7, "Dan": 25}
    assert "lowest" in at.success[0].value


def test_a_beaten_call_shows_the_penalty_cards_due_before_scoring_then_adds_them():
    """Worked example 3: one lower and one tied means three penalty cards, said before
    anything is tapped; one tap of Score then scores the round."""
    at = _calculator()
    assert [t.key for t in at.text_input if t.key == entry_key(at, "calc_round_penalty")] == []
    _type(at, ["12", "4", "12", "30"], "Ann")
    assert "Ann draws 3 penalty cards" in _preview(at)
    assert "Lowest: Ben (4)." in _preview(at)
    assert not at.error
    (penalty,) = [t for t in at.text_input if t.key == entry_key(at, "calc_round_penalty")]
    assert "3 penalty cards" in penalty.label
    penalty.input("QC 3D KS")
    at.button(key=entry_key(at, "calc_round_save")).click()
    at.run()
    assert _scores(at) == {"Ann": 40, "Ben": 4, "Cleo": 12, "Dan": 30}


def test_an_earlier_result_never_stands_beside_new_input():
    at = _calculator()
    _fill(at, ["AH 2C", "10", "7", "25"], "Ann")
    assert _scores(at)["Ann"] == 3
    at.text_input(key=entry_key(at, "calc_round_hand_1")).input("1").run()
    assert not at.dataframe  # the old result is gone; the preview follows the new hands
    assert "Lowest: Ben (1)." in _preview(at)
    _fill(at, ["K 2", "10", "7", "25"], "Ann")
    assert at.error
    at.text_input(key=entry_key(at, "calc_round_hand_0")).input("KH 2").run()
    assert not at.error  # the old error is gone with the fixed hand


def test_points_rules_never_show_a_penalty_field():
    at = _calculator()
    at.selectbox(key="calc_rules").select("points").run()
    _type(at, ["12", "4", "12", "30"], "Ann")
    assert [t.key for t in at.text_input if t.key == entry_key(at, "calc_round_penalty")] == []
    assert "Ann scores 10 penalty points" in _preview(at)
    at.button(key=entry_key(at, "calc_round_save")).click()
    at.run()
    assert _scores(at) == {"Ann": 22, "Ben": 4, "Cleo": 12, "Dan": 30}


def test_nothing_is_scored_until_the_caller_and_the_call_are_chosen():
    at = _calculator()
    _type(at, ["3", "4", "6", "8"], None, None)
    at.button(key=entry_key(at, "calc_round_save")).click()
    at.run()
    assert not at.dataframe
    assert "Choose who ended the round." in [shown(e.value) for e in at.error]
    at.pills(key=entry_key(at, "calc_round_caller")).set_value("Ann").run()
    at.button(key=entry_key(at, "calc_round_save")).click()
    at.run()
    assert not at.dataframe
    assert any("Choose how Ann ended the round" in shown(e.value) for e in at.error)


def test_an_empty_hand_is_refused_with_the_players_name_unless_auto_dutch():
    at = _calculator()
    _fill(at, ["3", "", "6", "8"], "Ann")
    assert not at.dataframe
    messages = [shown(e.value) for e in at.error]
    assert any(m.startswith("Ben: no hand entered") for m in messages)
    _fill(at, ["3", "", "6", "8"], "Ben", call="auto_dutch")
    assert _scores(at)["Ben"] == 0
    _fill(at, ["3", "0", "6", "8"], "Ann", penalty="4 5")
    assert _scores(at) == {"Ann": 12, "Ben": 0, "Cleo": 6, "Dan": 8}


def test_a_bare_king_is_refused_next_to_its_player():
    """A King without a colour cannot be valued, so the page asks for it."""
    at = _calculator()
    _fill(at, ["K 2", "4", "6", "8"], "Ann")
    assert not at.dataframe
    messages = [shown(error.value) for error in at.error]
    assert any("'K'" in message and "Ann" in message for message in messages)


def test_penalty_cards_of_the_wrong_count_are_refused():
    """Two players tied with the caller: exactly two penalty cards, not one."""
    at = _calculator()
    _fill(at, ["5", "5", "9", "5"], "Ann", penalty="4S")
    assert not at.dataframe
    assert any("2" in error.value and "penalty" in shown(error.value) for error in at.error)


def test_auto_dutch_with_cards_left_is_refused():
    """Auto Dutch means an empty hand; cards in it are a mistake to point out."""
    at = _calculator()
    _fill(at, ["3", "1", "6", "2"], "Ann", call="auto_dutch")
    assert not at.dataframe
    assert any("Auto Dutch" in shown(error.value) for error in at.error)


def test_too_few_players_are_explained():
    """One name is not a game."""
    at = _calculator()
    at.text_input(key="calc_players").input("Solo")
    at.run()
    assert not at.exception
    assert "between 2 and 12" in at.info[0].value
