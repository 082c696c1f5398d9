"""The "Reviewers" group, holding the review permission. A reviewer is a staff
account in this group (the admin asks for staff, the review for the permission)."""

from django.db import migrations

GROUP = "Reviewers"
CODENAME = "review_results"
NAME = "Can review results: the review list, replay viewer, actions and audit log"


def create_group(apps, schema_editor):
    ContentType = apps.get_model("contenttypes", "ContentType")
    Permission = apps.get_model("auth", "Permission")
    Group = apps.get_model("auth", "Group")
    db = schema_editor.connection.alias
    # Permissions are otherwise created after all migrations (post_migrate): make
    # this one now, the same row that post_migrate would find and keep.
    content_type, _ = ContentType.objects.db_manager(db).get_or_create(
        app_label="reviews", model="gamereview"
    )
    permission, _ = Permission.objects.db_manager(db).get_or_create(
        content_type=content_type, codename=CODENAME, defaults={"name": NAME}
    )
    group, _ = Group.objects.db_manager(db).get_or_create(name=GROUP)
    group.permissions.add(permission)


def remove_group(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Group.objects.using(schema_editor.connection.alias).filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("reviews", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
