"""The API's views: each parses its request with a serializer, calls one service or
selector, and answers with a serializer's JSON (or a refusal, api.errors)."""
