"""A stored reply read again throws what its dice threw, each roll the faces its own roll threw
(`gm_tags.dice.ThrownAgain`; docs/proxy.md "A reply read again keeps its dice"): the rule by
which a roll finds its faces, and the faces a reply kept as one run (schema 8)."""

from __future__ import annotations

from gm_tags.dice import (
    SIDES_NOT_KNOWN,
    Dice,
    Recorded,
    Throw,
    ThrownAgain,
    joined,
    one_run,
    rest_from,
)


def thrown_by(rolls: list[tuple[int, int, int]], dice: Dice) -> list[list[int]]:
    """What `dice` throw for `rolls`, each (where its tag begins, count, sides), in order, told
    each tag as a reply's run tells them (once, as the tag begins)."""
    faces, tag_now = [], None
    for at, count, sides in rolls:
        if at != tag_now:
            dice.for_tag(tag_now := at)
        faces.append(dice.roll(count, sides))
    return faces


# A reply's rolls: its tag at 0 a d20, the one at 10 three d6 and then one d6 more (an
# explosion), the one at 25 two d6.
ROLLS = [(0, 1, 20), (10, 3, 6), (10, 1, 6), (25, 2, 6)]


def recorded() -> tuple[list[list[int]], tuple[Throw, ...]]:
    dice = Recorded(Dice())
    return thrown_by(ROLLS, dice), dice.thrown


def test_the_same_rolls_throw_the_same_faces_and_record_them_again() -> None:
    faces, thrown = recorded()
    assert [throw.faces for throw in thrown] == [tuple(f) for f in faces]
    assert [(t.at, t.sides) for t in thrown] == [(0, 20), (10, 6), (10, 6), (25, 6)]
    again = Recorded(ThrownAgain(thrown, Dice(5)))
    assert thrown_by(ROLLS, again) == faces
    assert again.thrown == thrown
    assert thrown_by(ROLLS, ThrownAgain(thrown).again()) == faces


def test_a_pool_grown_or_shrunk_changes_no_other_rolls_faces() -> None:
    """The second tag's pool asks for 5 dice, then 2: its own faces first (then new ones from
    the dice given), and every other roll still its own."""
    faces, thrown = recorded()
    grown = thrown_by(
        [(0, 1, 20), (10, 5, 6), (10, 1, 6), (25, 2, 6)], ThrownAgain(thrown, Dice(5))
    )
    assert grown == [faces[0], faces[1] + Dice(5).roll(2, 6), faces[2], faces[3]]
    shrunk = thrown_by([(0, 1, 20), (10, 2, 6), (10, 1, 6), (25, 2, 6)], ThrownAgain(thrown))
    assert shrunk == [faces[0], faces[1][:2], faces[2], faces[3]]


def test_a_roll_of_other_sides_or_past_its_tags_rolls_throws_new_dice() -> None:
    faces, thrown = recorded()
    rolls = [(0, 1, 12), (10, 3, 6), (10, 1, 6), (10, 1, 6), (25, 2, 6)]
    again = thrown_by(rolls, ThrownAgain(thrown, Dice(5)))
    fresh = Dice(5)
    assert again == [fresh.roll(1, 12), faces[1], faces[2], fresh.roll(1, 6), faces[3]]


def test_a_tag_that_rolls_no_more_leaves_the_others_their_faces() -> None:
    """Refused on the new state, the first tag throws nothing: the others are not moved on to
    its faces."""
    faces, thrown = recorded()
    assert thrown_by(ROLLS[1:], ThrownAgain(thrown)) == faces[1:]


def test_faces_kept_as_one_run_come_in_order_taken_round_a_dies_sides() -> None:
    """A reply stored on schema 8 kept its faces as one run: each roll takes the next, as it was
    read then; a face above a die's sides (the order met another die there) goes round them."""
    run = one_run([20, 7, 6, 3])
    assert run == (Throw(0, SIDES_NOT_KNOWN, (20, 7, 6, 3)),)
    assert thrown_by([(0, 3, 6), (10, 2, 6)], ThrownAgain(run, Dice(5))) == [
        [2, 1, 6],
        [3, *Dice(5).roll(1, 6)],
    ]
    assert one_run([]) == ()


def test_a_continuation_places_its_tags_after_the_reply_and_the_rest_of_a_split_from_0() -> None:
    """A reply 30 characters long, continued: the continuation's tags are 30 on in the whole;
    the rest of a reply split at 12 has its tags 12 nearer its start."""
    first = (Throw(0, 20, (14,)), Throw(12, 6, (3, 5)))
    then = (Throw(0, 6, (1,)), Throw(8, 10, (9, 2)))
    whole = joined(first, then, offset=30)
    assert whole == (*first, Throw(30, 6, (1,)), Throw(38, 10, (9, 2)))
    assert rest_from(whole, 30, first) == then
    rest = (Throw(0, 6, (3, 5)), Throw(18, 6, (1,)), Throw(26, 10, (9, 2)))
    assert rest_from(whole, 12, first[:1]) == rest
    # Kept as one run, a reply stays one; its rest is the faces after those the part threw.
    assert joined(one_run([4, 4]), then, offset=5) == one_run([4, 4, 1, 9, 2])
    assert rest_from(one_run([4, 4, 1, 9]), 5, (Throw(0, 6, (4, 4)),)) == one_run([1, 9])
