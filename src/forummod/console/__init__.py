"""The GM console (`forummod console`): one local page to run a game's day.

The vote count with L-1 / majority / hammer marked, the phase and its deadlines, the pending
proposals with Approve / Reject, forms for the GM's corrections, the GM notes, the night
actions, the prod list and the drafts. A thin view over the service: `view.py` gathers what
`tally`, `status`, `check` and `drafts` compute, `page.py` turns it into HTML (pure),
`server.py` serves it through the preview server's checks and runs every action under the
workspace lock through the same functions as the CLI (`gm_actions`, `service.poll_game`).
"""
