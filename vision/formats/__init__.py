"""Each accepted image format's structure checked against the file before any decoder sees it (one module a format):
every chunk or segment length within the file, the header's fields consistent, the file complete."""
