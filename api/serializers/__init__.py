"""What the API reads and writes, as DRF serializers: they shape the JSON and give
drf-spectacular the schema. Values come from the selectors, never from a model
that holds a seed or a snapshot."""
