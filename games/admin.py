"""Games in the admin are the review of results: reviews/admin.py registers Game
for reviewers only (docs/review.md). The seed and the snapshot hold hidden cards
and stay out of every admin page; only the reviewers' replay viewer shows a deal."""
