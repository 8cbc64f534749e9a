/* JSON-lines sink for the engine logger (engine/log.h): a FILE whose lines, in the
 * logger's text form "[  secs] LEVEL engine: message", are re-emitted on `out` as
 * {"ts":secs,"level":"info","msg":"message"} (jansson escaping). Lines in another form are
 * emitted with "level":"info" and the whole line as msg.
 * Thread-safety: the logger writes each line with one locked fprintf; this sink is only
 * used through it. */
#ifndef CUZK_SERVER_LOG_JSON_H
#define CUZK_SERVER_LOG_JSON_H

#include <stdio.h>

/* A new FILE (fopencookie) writing JSON lines to `out`; NULL on failure. Close with fclose. */
FILE *cuzk_log_json_open(FILE *out);

#endif
