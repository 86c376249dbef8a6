"""The play page (`/` and `/play/{chatId}` on `gm-tags serve` and `gm-tags proxy`): each
character's sheet, the clocks, the party sheet and the latest reply, served as static files that
read the chat's view (`view.chat_view`) from the service. No build step, nothing fetched from the
internet: the files ship in the wheel."""
