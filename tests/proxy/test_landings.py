"""A request is planned only once the streams pending on its chat have landed
(`gm_tags.proxy.landings`): the stopped reply a client just closed counts for its next request."""

from __future__ import annotations

import gc

import anyio

from gm_tags.proxy.landings import Landings


class Stream:
    """Stands for a streamed turn, the owner of a landing."""


def planned_after(
    landings: Landings, tenant: str, key: str | None, wait: float = 30.0
) -> list[str]:
    """The order in which a pending landing on chat `a` is written and a request (of `tenant`,
    on `key`) is planned, when the landing is written once the request has started waiting."""
    order: list[str] = []
    stream = Stream()
    landing = landings.begin("t", "a", stream)

    async def request() -> None:
        await landings.settled(tenant, key, wait)
        order.append("planned")

    async def both() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(request)
            await anyio.sleep(0.05)  # the request is waiting (or done) by now
            order.append("landed")
            landing.done()

    anyio.run(both)
    return order


def test_a_request_on_the_chat_or_naming_none_is_planned_after_the_pending_landing() -> None:
    assert planned_after(Landings(), "t", "a") == ["landed", "planned"]
    assert planned_after(Landings(), "t", None) == ["landed", "planned"]


def test_a_request_on_another_chat_or_tenant_does_not_wait() -> None:
    assert planned_after(Landings(), "t", "b") == ["planned", "landed"]
    assert planned_after(Landings(), "u", None) == ["planned", "landed"]


def settles_within(landings: Landings, seconds: float, wait: float) -> bool:
    """Whether a request on chat `a` of tenant `t`, waiting at most `wait`, goes on within
    `seconds`."""

    async def request() -> bool:
        with anyio.move_on_after(seconds) as scope:
            await landings.settled("t", "a", wait)
        return not scope.cancel_called

    return anyio.run(request)


def test_a_landing_never_written_holds_a_request_only_for_the_bounded_wait() -> None:
    landings = Landings()
    stream = Stream()
    landings.begin("t", "a", stream)
    assert not settles_within(landings, 0.05, wait=30)
    assert settles_within(landings, 30, wait=0.05)
    del stream


def test_a_stream_dropped_before_it_started_leaves_nothing_to_wait_for() -> None:
    landings = Landings()
    landings.begin("t", "a", Stream())  # the server dropped it: nothing holds it
    gc.collect()
    assert settles_within(landings, 30, wait=60)
