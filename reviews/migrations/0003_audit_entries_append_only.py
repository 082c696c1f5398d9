"""On PostgreSQL the database itself refuses to change or delete an audit entry
(the model refuses it on every database). SQLite relies on the model alone."""

from django.db import migrations

CREATE = """
CREATE FUNCTION reviews_auditentry_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit entries cannot be changed or deleted';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER reviews_auditentry_append_only
    BEFORE UPDATE OR DELETE ON reviews_auditentry
    FOR EACH ROW EXECUTE FUNCTION reviews_auditentry_append_only();
"""
DROP = """
DROP TRIGGER IF EXISTS reviews_auditentry_append_only ON reviews_auditentry;
DROP FUNCTION IF EXISTS reviews_auditentry_append_only();
"""


def create_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def drop_trigger(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("reviews", "0002_reviewers_group")]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
