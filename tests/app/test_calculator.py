"""The round calculator page, driven through Streamlit's AppTest."""

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.app.apptools import shown

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "calculator.py")


def _calculator() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    at.run()
    assert not at.exception
    return at


def _fill(at: AppTest, hands: list[str], caller: str, call: str = "dutch", penalty: str = ""):
    for index, text in enumerate(hands):
        at.text_input(key=f"calc_round_hand_{index}").input(text)
    at.selectbox(key="calc_round_caller").select(caller)
    at.radio(key="calc_round_call_type").set_value(call)
    at.text_input(key="calc_round_penalty").input(penalty)
    at.button[0].click()
    at.run()
    assert not at.exception


def _scores(at: AppTest) -> dict[str, int]:
    frame = at.dataframe[0].value
    return dict(zip(frame["Player"], frame["Round score"], strict=True))


def test_a_successful_call_scores_every_hand_as_it_is():
    """Worked example 1: the caller is lowest and draws nothing."""
    at = _calculator()
    _fill(at, ["AH 2C", "10", "7", "25"], "Ann")
    assert _scores(at) == {"Ann": 3, "Ben": 10, "Cleo": 7, "Dan": 25}
    assert "lowest" in at.success[0].value


def test_a_beaten_call_asks_for_the_penalty_cards_then_adds_them():
    """Worked example 3: one lower and one tied means three penalty cards."""
    at = _calculator()
    _fill(at, ["12", "4", "12", "30"], "Ann")
    assert not at.dataframe
    assert any("3 penalty cards" in shown(error.value) for error in at.error)
    at.text_input(key="calc_round_penalty").input("QC 3D KS")
    at.button[0].click()
    at.run()
    assert _scores(at) == {"Ann": 40, "Ben": 4, "Cleo": 12, "Dan": 30}


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
    _fill(at, ["3", "", "6", "2"], "Ann", call="auto_dutch")
    assert not at.dataframe
    assert any("Auto Dutch" in shown(error.value) for error in at.error)


def test_too_few_players_are_explained():
    """One name is not a game."""
    at = _calculator()
    at.text_input(key="calc_players").input("Solo")
    at.run()
    assert not at.exception
    assert "between 2 and 12" in at.info[0].value
