import re


def slugify(text):
    """A URL slug: lower case, runs of other characters replaced by one dash, no dash at either end."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
