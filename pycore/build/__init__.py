"""Build-time glue (MkDocs hook, templates, packing); never shipped to the browser."""
