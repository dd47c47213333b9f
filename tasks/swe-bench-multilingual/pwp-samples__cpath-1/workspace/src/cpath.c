#include "cpath.h"

#include <stdio.h>
#include <string.h>

const char *cpath_basename(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

const char *cpath_extension(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path + strlen(path);
}

size_t cpath_join(char *out, size_t size, const char *dir, const char *name)
{
    size_t n = strlen(dir);
    /* One separator, whether or not `dir` ends with one. */
    const char *sep = (n == 0 || dir[n - 1] == '/') ? "" : "/";
    int len = snprintf(out, size, "%s%s%s", dir, sep, name);
    return len < 0 ? 0 : (size_t)len;
}
