"""One package per tag family (`sheet`, `clock`, `skill_check`, `inventory`, `loot`, `fight`), each
holding its `FAMILY` (`gm_tags.families.family.Family`): which binder reads its tags, how its
command runs on the draft, its receipt's line and what the reminder teaches. `registry` holds
them all, and is what the pipeline, the stream and the prompt read."""
