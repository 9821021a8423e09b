"""The answer scorer: each rule, with the edges on both sides."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webfovea.eval.dates import parse_date_readings
from webfovea.eval.scoring import parse_number, score_answer


def check(answer, expected, passed, how=None):
    s = score_answer(answer, expected)
    assert s.passed is passed, (answer, expected, s)
    assert s.score == (1.0 if passed else 0.0)
    if how:
        assert s.how == how, (answer, expected, s)


@pytest.mark.parametrize(
    "answer,expected,passed",
    [
        ("Viet Nam", "viet nam", True),
        ("  Viet   Nam  ", "Viet Nam", True),
        ('"Viet Nam."', "Viet Nam", True),
        ("**Viet Nam**", "Viet Nam", True),
        ("ＶＩＥＴ ＮＡＭ", "Viet Nam", True),  # fullwidth letters: NFKC
        ("Straße", "STRASSE", True),  # casefold
        ("Vietnam", "Viet Nam", False),
        ("Café", "Cafe", False),  # accents are information, not noise
    ],
)
def test_exact(answer, expected, passed):
    check(answer, expected, passed, "exact" if passed else "mismatch")


@pytest.mark.parametrize(
    "answer,expected,passed",
    [
        ("100.5", "100", True),  # exactly +0.5%
        ("99.5", "100", True),  # exactly -0.5%
        ("100.51", "100", False),
        ("99.49", "100", False),
        ("1.005", 1, True),  # 1.005x passes
        ("1.0051", 1, False),  # 1.0051x fails
        ("0.995", 1.0, True),
        ("0.9949", 1.0, False),
        ("0", 0, True),
        ("0.0", "0", True),
        ("0.0001", 0, False),  # expected 0 needs an exact 0
        ("-5.025", "-5", True),
        ("-5.03", "-5", False),
        ("5", "-5", False),  # the sign is not noise
        ("−3.2", "-3.2", True),  # U+2212 minus
        ("1,234,567", "1234567", True),
        ("1 234 567", 1234567, True),
        ("$1,234,567", "1234567", True),
        ("€ 12.40", "12.4", True),
        ("12.4 EUR", "12.4", True),
        ("1.2 million", "1,200,000", True),
        ("$1.2bn", "1200000000", True),
        ("97.3 million", "97.3", True),  # expected has no scale: the echoed unit is accepted
        ("97.3", "97.3 million", False),  # expected has a scale: answer must have it too
        ("97.3 years", "97.3", True),
        ("5 km", "5 mi", False),  # both carry units: they must agree
        ("3,5", "3.5", False),  # no decimal comma
        ("12.5%", "12.5", True),
        ("12.5 %", "12.5%", True),
        ("12.5 percent", "12.5%", True),
        ("0.125", "12.5%", True),
        ("12.5%", "0.125", True),
        ("12.6%", "12.5%", False),
        ("993884163", "993 884 163", True),  # spaced digits: maybe an identifier, so digit for digit
        ("993 884 163", "993884163", True),
        ("993 884 164", "993 884 163", False),  # within 0.5%, but a different number
        ("993884164", "993 884 163", False),
    ],
)
def test_numeric(answer, expected, passed):
    check(answer, expected, passed)


def test_numeric_how():
    assert score_answer("100.4", "100").how == "numeric"
    assert score_answer("1,000", 1000).how == "numeric"


@given(st.integers(min_value=1, max_value=10**9), st.integers(min_value=-6, max_value=6))
def test_tolerance_edges_are_exact_for_any_magnitude(n, exp):
    e = Decimal(n) * Decimal(10) ** exp
    edge = e * Decimal("1.005")
    over = e * Decimal("1.0051")
    assert score_answer(format(edge, "f"), format(e, "f")).passed
    assert not score_answer(format(over, "f"), format(e, "f")).passed
    assert score_answer("-" + format(edge, "f"), "-" + format(e, "f")).passed


def test_parse_number_rejects_text_with_two_numbers():
    assert parse_number("5 to 6") is None
    assert parse_number("about 5") is None
    assert parse_number("2023-05-01") is None
    assert parse_number("1,234").value == 1234


@pytest.mark.parametrize(
    "answer,expected,passed",
    [
        ("2023-05-01", "2023-05-01", True),
        ("May 1, 2023", "2023-05-01", True),
        ("1 May 2023", "2023-05-01", True),
        ("1st of May, 2023", "2023-05-01", True),
        ("Monday, May 1, 2023", "2023-05-01", True),
        ("Sept. 3, 2023", "2023-09-03", True),
        ("2023/5/1", "2023-05-01", True),
        ("2023.05.01", "2023-05-01", True),
        ("2023年5月1日", "2023-05-01", True),
        ("13/05/2023", "2023-05-13", True),  # only day-first is a valid reading
        ("05/13/2023", "2023-05-13", True),  # only month-first is a valid reading
        ("05/05/2023", "2023-05-05", True),  # both readings agree
        ("01/05/2023", "2023-05-01", False),  # ambiguous: could be 5 January
        ("01/05/2023", "2023-01-05", False),
        ("01/05/2023", "01/05/2023", True),
        ("2023-05-01", "01/05/2023", True),  # one reading of an ambiguous expected value
        ("May 2023", "2023-05", True),
        ("2023-05", "May 2023", True),
        ("05/2023", "2023-05", True),
        ("May 2023", "2023-05-01", False),  # precision must agree
        ("2023-05-02", "2023-05-01", False),
        ("2022-05-01", "May 1, 2023", False),
        ("2023-02-30", "2023-03-02", False),  # not a date, not a number
    ],
)
def test_dates(answer, expected, passed):
    check(answer, expected, passed, "date" if passed and answer != expected else None)


def test_date_readings():
    assert parse_date_readings("01/05/2023") == {(2023, 5, 1), (2023, 1, 5)}
    assert parse_date_readings("31/12/2023") == {(2023, 12, 31)}
    assert parse_date_readings("2023") == set()  # a bare year is a number
    assert parse_date_readings("May the force") == set()


@pytest.mark.parametrize(
    "answer,expected,passed",
    [
        ("Paris, London", ["London", "Paris"], True),
        ("Paris; London", ["London", "Paris"], True),
        ("Paris\nLondon", ["London", "Paris"], True),
        ("Paris and London", ["London", "Paris"], True),
        ("- Paris\n- London", ["London", "Paris"], True),
        ("1. Paris\n2. London", ["Paris", "London"], True),
        ('["Paris", "London"]', ["London", "Paris"], True),
        ("Paris, London", {"value": ["Paris", "London"], "ordered": True}, True),
        ("London, Paris", {"value": ["Paris", "London"], "ordered": True}, False),
        ("Paris", ["London", "Paris"], False),  # too few
        ("Paris, London, Rome", ["London", "Paris"], False),  # too many
        ("Paris, Paris", ["London", "Paris"], False),  # each element used once
        ("1,234 and 5,678", [5678, 1234], True),  # thousands commas are not separators
        ("1,234; 5,680", ["1234", "5678"], True),  # elements scored numerically
        ("May 1, 2023; June 2, 2023", ["2023-06-02", "2023-05-01"], True),
        ("Bosnia and Herzegovina, France", ["France", "Bosnia and Herzegovina"], True),
        ("Paris; London", {"type": "list", "value": "London, Paris"}, True),
        ("Paris", ["Paris"], True),
        # a string expected value written as a ';' list
        ("Piraeus; Genoa; Koper", "Piraeus; Genoa; Koper", True),
        ("Koper, Piraeus, Genoa", "Piraeus; Genoa; Koper", True),
        ("Koper\nPiraeus\nGenoa", "Piraeus; Genoa; Koper", True),
        ("Piraeus; Genoa", "Piraeus; Genoa; Koper", False),
        ("Koper; Piraeus; Genoa", {"value": "Piraeus; Genoa; Koper", "type": "exact"}, False),
        ("SHP-10496; SHP-10439", "SHP-10439; SHP-10496", True),
        ("SHP-10496; SHP-10438", "SHP-10439; SHP-10496", False),
    ],
)
def test_lists(answer, expected, passed):
    check(answer, expected, passed)


@pytest.mark.parametrize(
    "answer,expected,passed",
    [
        (None, None, True),
        ("", None, True),
        ("   ", "", True),
        ('""', None, True),
        ("", [], True),
        ("0", None, False),
        ("none found", "", False),
        (None, "Viet Nam", False),
        ("", "42", False),
        ("  ", ["a", "b"], False),
        (None, {"value": None}, True),
    ],
)
def test_empty(answer, expected, passed):
    s = score_answer(answer, expected)
    assert s.passed is passed, s
    if passed or not answer or not answer.strip():
        assert s.how == "empty"


@given(
    st.text(max_size=80),
    st.one_of(
        st.none(),
        st.text(max_size=40),
        st.integers(),
        st.floats(allow_nan=False),
        st.lists(st.text(max_size=10), max_size=4),
    ),
)
def test_never_raises_and_identical_answers_pass(answer, expected):
    s = score_answer(answer, expected)
    assert s.how in ("exact", "numeric", "date", "list", "empty", "mismatch")
    if isinstance(expected, str):
        assert score_answer(expected, expected).passed
