"""The public API under /api/v1/ (docs/api.md): every action of the web board for a
mobile or third-party client, through the same services and selectors as the pages."""
