"""The play page in a real headless Chromium: post a reply and see the receipts and the clock
advance, click a wound box, pick a state, save the party sheet from two pages (the second gets
the stale-save view with its draft kept), switch swipes, read the story back, see a reply that
lands through the API without a reload, pick suggestion chips, and write screenshots of three
fixture games (one in Japanese, one in Hindi) for a look by eye."""

from __future__ import annotations

from typing import Any

import pytest

from tests.service.server import Server
from tests.web.conftest import new_chat, screenshot

# One Chromium and one server for the whole file, on one worker.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("browser")]

WAIT = 15


def opened(browser: Any, server: Server, chat_id: str) -> Any:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(f"http://127.0.0.1:{server.port}/play/{chat_id}")
    WebDriverWait(browser, WAIT).until(
        lambda d: d.find_element(By.ID, "sheets").find_elements(By.CSS_SELECTOR, ".sheet")
    )
    return browser


def wait_for(browser: Any, condition: Any) -> Any:
    """`condition` true, read again whenever the page redrew what it was reading."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    waiting = WebDriverWait(browser, WAIT, ignored_exceptions=(StaleElementReferenceException,))
    return waiting.until(condition)


def css(browser: Any, selector: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(browser.find_elements(By.CSS_SELECTOR, selector))


def clock_fill(browser: Any, name: str) -> str:
    return str(css(browser, f'.clock[data-name="{name}"] .clock-fill')[0].text)


def party_revision(browser: Any) -> str:
    """The party sheet's revision the page holds (kept for its saves, not shown to players)."""
    return str(css(browser, "#party")[0].get_attribute("data-revision"))


def post_reply(browser: Any, text: str, button: str = "post-reply") -> None:
    from selenium.webdriver.common.by import By

    box = browser.find_element(By.ID, "reply-text")
    box.clear()
    box.send_keys(text)
    browser.find_element(By.ID, button).click()


def test_a_reply_posted_on_the_page_shows_its_receipts_and_moves_the_clock(
    browser: Any, server: Server
) -> None:
    chat_id = new_chat(server, "heist")
    opened(browser, server, chat_id)
    assert clock_fill(browser, "Alarm raised") == "2/6"
    post_reply(
        browser,
        'The guard turns. [clock: name="Alarm raised" tick="2"] '
        '[sheet: who="Tobin Vell" op="spend" pool="stress" amount="99"]',
    )
    wait_for(browser, lambda d: clock_fill(d, "Alarm raised") == "4/6")
    receipts = css(browser, "#receipts li")
    assert [r.get_attribute("class") for r in receipts] == ["ok", "refused"]
    assert "insufficient" in receipts[1].text
    assert css(browser, "#narration")[0].text == "The guard turns."
    filled = css(browser, '.clock[data-name="Alarm raised"] .segment.filled')
    assert len(filled) == 4
    done = css(browser, '.clock[data-name="Bluecoat patrol"]')[0]
    assert "done" in done.get_attribute("class")


def test_a_fight_begun_in_a_reply_shows_its_order_health_and_turn(
    browser: Any, server: Server
) -> None:
    chat_id = new_chat(server, "ember")
    opened(browser, server, chat_id)
    assert not css(browser, "#fight .combatant")
    post_reply(browser, 'A moth drifts in. [fight: op="begin" against="cinder-moth"]')
    wait_for(browser, lambda d: css(d, "#fight .combatant"))
    names = {c.get_attribute("data-name") for c in css(browser, "#fight .combatant")}
    assert names == {"Mira Ashdown", "Tobin Vell", "灯里", "Cinder Moth"}
    assert len(css(browser, "#fight .combatant.acting")) == 1
    assert css(browser, '#fight .combatant[data-name="Cinder Moth"] .combatant-health')[
        0
    ].text.endswith("/6")
    assert "round" in css(browser, "#fight .fight-turn")[0].text


def test_a_click_on_a_clear_box_of_an_indexed_track_marks_it(browser: Any, server: Server) -> None:
    chat_id = new_chat(server, "ember")
    opened(browser, server, chat_id)
    sheet = '.sheet[data-name="Mira Ashdown"] .track[data-track="strain"]'
    boxes = css(browser, f"{sheet} .box")
    assert len(boxes) == 5 and not any(b.get_attribute("data-kind") for b in boxes)
    boxes[2].click()  # box 3: on an indexed track any clear box can be marked (WB-10)
    wait_for(browser, lambda d: css(d, f'{sheet} .box[data-box="3"]')[0].get_attribute("data-kind"))
    marked = css(browser, f'{sheet} .box[data-box="3"]')[0]
    assert marked.get_attribute("data-kind") == "strain" and marked.text == "S"
    assert css(browser, f'{sheet} .box[data-box="1"]')[0].get_attribute("data-kind") == ""
    assert "Strain 1/5" in css(browser, f"{sheet} .track-now")[0].text
    assert server.call("GET", f"/games/{chat_id}")[1]["messages"][-1]["role"] == "event"


def test_a_state_picked_on_the_page_is_stored(browser: Any, server: Server) -> None:
    from selenium.webdriver.support.ui import Select

    chat_id = new_chat(server, "ember")
    opened(browser, server, chat_id)
    picker = css(browser, '.sheet[data-name="Tobin Vell"] select[data-state="stance"]')[0]
    assert Select(picker).first_selected_option.text == "Guarded"  # as the game stores it
    assert [o.text for o in Select(picker).options] == ["Guarded", "Steady", "Reckless"]
    Select(picker).select_by_visible_text("Reckless")

    def stored(_: Any) -> bool:
        view = server.call("GET", f"/games/{chat_id}/view")[1]
        tobin = next(c for c in view["characters"] if c["name"] == "Tobin Vell")
        return bool(tobin["states"][0]["current"] == "reckless")

    wait_for(browser, stored)
    shown = '.sheet[data-name="Tobin Vell"] select[data-state="stance"]'
    wait_for(browser, lambda d: Select(css(d, shown)[0]).first_selected_option.text == "Reckless")


def test_a_stale_party_save_shows_the_newer_sheet_and_keeps_the_draft(
    browser: Any, server: Server
) -> None:
    from selenium.webdriver.common.by import By

    chat_id = new_chat(server, "heist")
    opened(browser, server, chat_id)
    first = browser.current_window_handle
    browser.switch_to.new_window("tab")
    opened(browser, server, chat_id)
    second = browser.current_window_handle

    lair = browser.find_element(By.ID, "party-lair")  # the second page starts a draft
    lair.clear()
    lair.send_keys("A canal barge")

    browser.switch_to.window(first)  # the first page saves before it
    lair = browser.find_element(By.ID, "party-lair")
    lair.clear()
    lair.send_keys("The loft")
    browser.find_element(By.ID, "save-party").click()
    wait_for(browser, lambda d: party_revision(d) == "1")

    browser.switch_to.window(second)
    # The save landed on the other page; this one shows it live and keeps the draft.
    wait_for(browser, lambda d: party_revision(d) == "1")
    assert browser.find_element(By.ID, "party-lair").get_attribute("value") == "A canal barge"
    browser.find_element(By.ID, "save-party").click()
    notice = wait_for(browser, lambda d: css(d, "#party-stale"))
    assert "newer sheet" in notice[0].text
    assert party_revision(browser) == "1"
    assert browser.find_element(By.ID, "party-lair").get_attribute("value") == "A canal barge"
    browser.find_element(By.ID, "save-party").click()  # saving again keeps the draft
    wait_for(browser, lambda d: party_revision(d) == "2")
    browser.close()
    browser.switch_to.window(first)
    stored = server.call("GET", f"/games/{chat_id}/view")[1]["party"]["sheet"]["fields"]
    assert stored["lair"] == "A canal barge"


def test_the_party_sheet_shows_defaults_and_computed_fields_read_only_and_no_revision(
    browser: Any, server: Server
) -> None:
    from selenium.webdriver.common.by import By

    chat_id = new_chat(server, "heist")
    opened(browser, server, chat_id)
    party = browser.find_element(By.ID, "party")
    assert browser.find_element(By.ID, "party-vault").get_attribute("value") == "4"  # Coin 3/4
    assert browser.find_element(By.ID, "party-heat").get_attribute("value") == "0"
    assert not css(browser, "#party-size") and not css(browser, "#party-stashed")  # no inputs
    size = css(browser, '#party .party-computed dd[data-field="size"]')[0]
    assert size.text == str(len(css(browser, ".sheet")))
    assert "Revision" not in party.text
    mine = css(browser, ".sheet.player")
    assert [m.get_attribute("data-name") for m in mine] == ["Mira"] and "(you)" in mine[0].text


def test_swipes_of_the_last_reply_are_switched_on_the_page(browser: Any, server: Server) -> None:
    chat_id = new_chat(server, "heist")
    opened(browser, server, chat_id)
    post_reply(browser, 'First take. [clock: name="Alarm raised" tick="1"]')
    wait_for(browser, lambda d: clock_fill(d, "Alarm raised") == "3/6")
    post_reply(browser, 'Second take. [clock: name="Alarm raised" tick="3"]', "regenerate")
    wait_for(browser, lambda d: clock_fill(d, "Alarm raised") == "5/6")
    swipes = css(browser, "#swipes .swipe")
    assert [s.get_attribute("aria-pressed") for s in swipes] == ["false", "true"]
    swipes[0].click()
    wait_for(browser, lambda d: css(d, "#narration")[0].text == "First take.")
    assert clock_fill(browser, "Alarm raised") == "3/6"
    assert css(browser, "#swipes .swipe")[0].get_attribute("aria-pressed") == "true"


def test_the_story_so_far_shows_every_message_with_receipts_and_reads_back(
    browser: Any, server: Server
) -> None:
    chat_id = new_chat(server, "heist")
    for turn in range(23):  # 46 messages: more than the one page the view carries (40)
        assert server.call("POST", f"/games/{chat_id}/user", {"text": f"Move {turn}."})[0] == 200
        reply = f'Answer {turn}. [clock: name="Alarm raised" tick="{turn % 2}"]'
        assert server.call("POST", f"/games/{chat_id}/replies", {"text": reply})[0] == 200
    opened(browser, server, chat_id)
    entries = wait_for(browser, lambda d: css(d, "#story-log .entry"))
    assert len(entries) == 40 and entries[0].text.startswith("Player: Move 3.")
    answer = css(browser, '#story-log .entry.reply[data-message="7"]')[0]
    assert answer.text.splitlines()[0] == "Answer 3."  # no tag in the narration
    assert [r.get_attribute("class") for r in answer.find_elements("css selector", "li")] == ["ok"]
    assert css(browser, "#story-log .entry.latest #narration")[0].text == "Answer 22."
    earlier = css(browser, "#earlier")[0]
    assert earlier.is_displayed()
    earlier.click()
    wait_for(browser, lambda d: len(css(d, "#story-log .entry")) == 46)
    assert css(browser, "#story-log .entry")[0].text == "Player: Move 0."
    assert not css(browser, "#earlier")[0].is_displayed()
    screenshot(browser, "story-read-back")


def test_a_reply_that_lands_through_the_api_shows_without_a_reload(
    browser: Any, server: Server
) -> None:
    chat_id = new_chat(server, "heist")
    opened(browser, server, chat_id)
    browser.execute_script("window.notReloaded = true")
    reply = 'Far away, a bell. [clock: name="Alarm raised" tick="1"]'
    assert server.call("POST", f"/games/{chat_id}/replies", {"text": reply})[0] == 200
    wait_for(browser, lambda d: css(d, "#narration")[0].text == "Far away, a bell.")
    assert clock_fill(browser, "Alarm raised") == "3/6"
    assert browser.execute_script("return window.notReloaded") is True


def test_suggestion_chips_count_choose_n_and_stop_at_n(browser: Any, server: Server) -> None:
    from selenium.webdriver.common.by import By

    chat_id = new_chat(server, "fifth")
    opened(browser, server, chat_id)
    field = browser.find_element(By.CSS_SELECTOR, 'input[data-field="favored_enemies"]')
    count = field.find_element(By.XPATH, "following-sibling::span[1]")
    assert count.text.startswith("Choose ")
    wanted = int(count.text.split()[1])
    chips = css(browser, '[aria-label="Favored enemies suggestions"] .chip')
    for chip in chips[:wanted]:
        chip.click()
    assert count.text == f"Choose {wanted} ({wanted} chosen)"
    assert not any(chip.is_displayed() for chip in chips)  # no more chips once N are in
    field.send_keys(", and my own grudge")  # typed text is never refused
    assert field.get_attribute("value").endswith("my own grudge")


@pytest.mark.parametrize("game", ["heist", "hollows", "rajmarg"])
def test_screenshots_of_three_fixture_games(browser: Any, server: Server, game: str) -> None:
    chat_id = new_chat(server, game)
    opened(browser, server, chat_id)
    names = [s.get_attribute("data-name") for s in css(browser, ".sheet")]
    assert names and all(names)
    path = screenshot(browser, f"play-{game}")
    assert path.stat().st_size > 10_000


def test_the_page_is_usable_at_phone_width(browser: Any, server: Server) -> None:
    chat_id = new_chat(server, "hollows")
    browser.set_window_size(390, 900)
    try:
        opened(browser, server, chat_id)
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 400  # no sideways scrolling
        screenshot(browser, "play-hollows-phone")
    finally:
        browser.set_window_size(1280, 1400)


def test_the_chats_page_lists_chats_by_title_and_renames_one(browser: Any, server: Server) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions

    chat_id = new_chat(server, "ship")
    assert server.call("PUT", f"/games/{chat_id}/title", {"title": "Laser hearts"})[0] == 200
    for night in ("Night 10", "Night 9"):
        body = {"chatId": night.replace(" ", "-"), "rulesetId": "laser-hearts"}
        assert server.call("POST", "/games", {**body, "title": night})[0] == 201
    browser.get(f"http://127.0.0.1:{server.port}/")
    wait_for(browser, lambda d: d.find_element(By.CSS_SELECTOR, ".chats[data-loaded]"))
    shown = [link.text for link in css(browser, ".chats li a")]
    assert shown.index("Night 9") < shown.index("Night 10")  # numbers read as numbers
    item = css(browser, f'.chats li[data-chat="{chat_id}"]')[0]
    assert item.find_element(By.TAG_NAME, "a").text == "Laser hearts"
    assert item.find_element(By.CSS_SELECTOR, ".chat-id").text == chat_id
    item.find_element(By.CSS_SELECTOR, ".rename").click()
    asked = wait_for(browser, expected_conditions.alert_is_present())
    asked.send_keys("The long patrol")
    asked.accept()
    renamed = f'.chats li[data-chat="{chat_id}"] a'
    wait_for(browser, lambda d: css(d, renamed)[0].text == "The long patrol")
    assert server.call("GET", "/games")[1]["titles"][chat_id] == "The long patrol"
    screenshot(browser, "chats-page")
