def truncate(text, width, ellipsis="..."):
    """text cut to at most width characters, ending in the ellipsis when it was cut."""
    if len(text) <= width:
        return text
    return text[: max(0, width - len(ellipsis))] + ellipsis
