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
    after_tags,
    joined,
    one_run,
)


def thrown_by(rolls: list[tuple[int, int, int]], dice: Dice) -> list[list[int]]:
    """What `dice` throw for `rolls`, each (tag, count, sides), in order, told each tag as a
    reply's run tells them (once, as the tag begins)."""
    faces, tag_now = [], None
    for tag, count, sides in rolls:
        if tag != tag_now:
            dice.for_tag(tag_now := tag)
        faces.append(dice.roll(count, sides))
    return faces


# A reply's rolls: its first tag a d20, its second three d6 and then one d6 more (an explosion),
# its third two d6.
ROLLS = [(0, 1, 20), (1, 3, 6), (1, 1, 6), (2, 2, 6)]


def recorded() -> tuple[list[list[int]], tuple[Throw, ...]]:
    dice = Recorded(Dice())
    return thrown_by(ROLLS, dice), dice.thrown


def test_the_same_rolls_throw_the_same_faces_and_record_them_again() -> None:
    faces, thrown = recorded()
    assert [throw.faces for throw in thrown] == [tuple(f) for f in faces]
    assert [(t.tag, t.sides) for t in thrown] == [(0, 20), (1, 6), (1, 6), (2, 6)]
    again = Recorded(ThrownAgain(thrown, Dice(5)))
    assert thrown_by(ROLLS, again) == faces
    assert again.thrown == thrown
    assert thrown_by(ROLLS, ThrownAgain(thrown).again()) == faces


def test_a_pool_grown_or_shrunk_changes_no_other_rolls_faces() -> None:
    """The second tag's pool asks for 5 dice, then 2: its own faces first (then new ones from
    the dice given), and every other roll still its own."""
    faces, thrown = recorded()
    grown = thrown_by([(0, 1, 20), (1, 5, 6), (1, 1, 6), (2, 2, 6)], ThrownAgain(thrown, Dice(5)))
    assert grown == [faces[0], faces[1] + Dice(5).roll(2, 6), faces[2], faces[3]]
    shrunk = thrown_by([(0, 1, 20), (1, 2, 6), (1, 1, 6), (2, 2, 6)], ThrownAgain(thrown))
    assert shrunk == [faces[0], faces[1][:2], faces[2], faces[3]]


def test_a_roll_of_other_sides_or_past_its_tags_rolls_throws_new_dice() -> None:
    faces, thrown = recorded()
    rolls = [(0, 1, 12), (1, 3, 6), (1, 1, 6), (1, 1, 6), (2, 2, 6)]
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
    assert thrown_by([(0, 3, 6), (1, 2, 6)], ThrownAgain(run, Dice(5))) == [
        [2, 1, 6],
        [3, *Dice(5).roll(1, 6)],
    ]
    assert one_run([]) == ()


def test_a_continuation_counts_its_tags_on_and_the_rest_of_a_split_counts_them_from_0() -> None:
    first = (Throw(0, 20, (14,)), Throw(2, 6, (3, 5)))
    then = (Throw(0, 6, (1,)), Throw(1, 10, (9, 2)))
    whole = joined(first, then, tags=3)
    assert whole == (*first, Throw(3, 6, (1,)), Throw(4, 10, (9, 2)))
    assert after_tags(whole, 3, first) == then
    assert after_tags(whole, 2, ()) == (Throw(0, 6, (3, 5)), *joined((), then, tags=1))
    # Kept as one run, a reply stays one; its rest is the faces after those the part threw.
    assert joined(one_run([4, 4]), then, tags=1) == one_run([4, 4, 1, 9, 2])
    assert after_tags(one_run([4, 4, 1, 9]), 1, (Throw(0, 6, (4, 4)),)) == one_run([1, 9])
