/* Path names as strings: the parts of a '/'-separated path, without touching the file system. */
#ifndef CPATH_H
#define CPATH_H

#include <stddef.h>

/* The last component of `path` (a pointer into it): "src/main.c" gives "main.c". */
const char *cpath_basename(const char *path);

/* The extension of the last component, without its dot (a pointer into `path`), or "" when
 * there is none: "notes.txt" gives "txt", "archive.tar.gz" gives "gz". */
const char *cpath_extension(const char *path);

/* Writes `dir` and `name` joined by one '/' into `out` (at most `size` bytes with the NUL);
 * returns the joined length, which is `size` or more when `out` was too small. */
size_t cpath_join(char *out, size_t size, const char *dir, const char *name);

#endif
