/*===- error.c - the per-thread message of the last failed call -----------===*
 *
 * Each thread has its own buffer, so concurrent calls that fail do not
 * overwrite each other's messages, and a message stays valid until the same
 * thread makes its next call into this module.
 *===----------------------------------------------------------------------===*/
#include "tad/runtime_internal.h"

#include <stdarg.h>
#include <stdio.h>

static _Thread_local char tad_error_message[TAD_ERROR_CAPACITY];

void __tad_set_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  /* vsnprintf truncates and always terminates the buffer. */
  if (vsnprintf(tad_error_message, sizeof tad_error_message, fmt, ap) < 0)
    tad_error_message[0] = '\0';
  va_end(ap);
}

void __tad_clear_error(void) { tad_error_message[0] = '\0'; }

TAD_EXPORT const char *tad_last_error(void) { return tad_error_message; }
