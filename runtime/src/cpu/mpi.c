/*===- mpi.c - the collectives of tad.all_reduce and friends, over MPI ----===*
 *
 * tad-to-linalg lowers each bucket of tad.all_reduce and
 * tad.broadcast_from to a start and a wait,
 *
 *   int64_t _tad_mpi_start_<f32|f64>(int64_t kind, int64_t dtype,
 *       int64_t root, int64_t signature, int64_t bucket,
 *       int64_t rank_in, void *in, int64_t rank_out, void *out)
 *   void _tad_mpi_wait_<f32|f64>(int64_t handle, int64_t rank_out, void *out)
 *
 * (kind 0 sum, 1 mean, 2 broadcast from `root`; `in` and `out` are 1-D
 * contiguous unranked memrefs of one bucket), and tad.barrier to
 * _tad_mpi_barrier(); tad-overlap-collectives then moves each start up to
 * where its bucket's last tensor is computed, so that the collective runs
 * while the rest of the backward pass does. See passes/Conversion/
 * TadToLinalg/TadToLinalgCollectives.cpp, passes/CPU/OverlapCollectives.cpp
 * and docs/distributed.md.
 *
 * MPI is not linked: modules must load on machines without it. The first
 * collective loads Open MPI's libmpi.so.40 (or $TAD_MPI_LIBRARY) with
 * dlopen(RTLD_GLOBAL: Open MPI's own plugins resolve symbols from it) and
 * looks up the functions and the predefined handles it needs (Open MPI's
 * handles are the addresses of its `ompi_mpi_*` globals; MPICH's integer
 * handles are not supported). If the caller has not initialised MPI
 * (MPI_Initialized), the runtime calls MPI_Init_thread and registers
 * MPI_Finalize with atexit; a caller that initialised MPI (a C program,
 * mpi4py) keeps the responsibility of finalising it. The collectives run on a duplicate
 * of MPI_COMM_WORLD whose error handler is MPI_ERRORS_RETURN, so a failing
 * call returns a code, which becomes TAD_ERROR_RUNTIME with MPI's error
 * string (__tad_fail_runtime unwinds to __tad_run like an out-of-range
 * index).
 *
 * Before each bucket, the ranks compare (one MPI_Allreduce of 12 int64
 * with MPI_MAX, of each value and its negation) the bucket's element
 * count, the op's signature (a hash of the op and its operand types), the
 * kind, the root, the bucket index and the dtype: a rank whose program
 * differs makes every rank fail with the same diagnosis, where a
 * mismatched MPI_Allreduce would hang or corrupt memory.
 *
 * The start copies `in` into `out` (the collective runs in place there,
 * so `in` may be reused at once) and queues the bucket for the
 * communication thread, which makes every MPI call after MPI_Init, in the
 * order the starts came; the wait blocks until that bucket is done and
 * turns its failure into TAD_ERROR_RUNTIME. MPI must allow calls from a
 * thread other than the main one: the runtime initialises MPI with
 * MPI_THREAD_SERIALIZED; when the caller initialised it with a lower level
 * (a C program's MPI_Init), or $TAD_COLLECTIVE_OVERLAP is 0, each bucket
 * runs in the calling thread at its start instead, without overlap. After
 * a collective fails, this process runs no further collective (the ranks
 * no longer agree on which comes next): they fail with the first error. A
 * call that fails otherwise (an index check, memory) while buckets are in
 * flight lets them finish before its temporaries are freed
 * (__tad_mpi_abandon_collectives, from call.c).
 *
 * The watchdog: a rank that stops calling collectives without dying (an
 * endless loop, a deadlock, an error caught and ignored) would leave the
 * others waiting in MPI forever. A thread of ours (it makes no MPI call)
 * wakes about once a second; when a thread has been inside one MPI call
 * for longer than $TAD_COLLECTIVE_TIMEOUT seconds (default 1800,
 * PyTorch's process-group default; 0 disables), it prints which call,
 * bucket and rank waited, and ends the process with _exit(124): mpirun
 * then ends the job on every rank, the hung one included. Polling a
 * nonblocking collective instead would let the rank raise an error, but
 * the pending collective could not be cancelled. The communication thread
 * uses the blocking collectives, not MPI_Iallreduce: Open MPI's
 * nonblocking ones (libnbc) progress only inside MPI calls, so started
 * from the computing thread they would not advance while it computes.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "call_frame.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef void *mpi_handle; /* Open MPI: MPI_Comm, MPI_Datatype, ... */

static struct {
  int ok;             /* loaded and initialised */
  char error[768];    /* why not, when !ok */
  void *lib;
  int initialised_by_us;
  int (*Initialized)(int *);
  int (*Finalized)(int *);
  int (*Init_thread)(int *, char ***, int, int *);
  int (*Query_thread)(int *);
  int (*Finalize)(void);
  int (*Comm_dup)(mpi_handle, mpi_handle *);
  int (*Comm_set_errhandler)(mpi_handle, mpi_handle);
  int (*Comm_rank)(mpi_handle, int *);
  int (*Comm_size)(mpi_handle, int *);
  int (*Allreduce)(const void *, void *, int, mpi_handle, mpi_handle,
                   mpi_handle);
  int (*Bcast)(void *, int, mpi_handle, int, mpi_handle);
  int (*Barrier)(mpi_handle);
  int (*Error_string)(int, char *, int *);
  mpi_handle comm_world, t_float, t_double, t_int64, op_sum, op_max,
      errors_return;
  mpi_handle comm; /* our duplicate of MPI_COMM_WORLD */
  int rank, size;
  int thread_level; /* MPI_THREAD_SINGLE 0 ... MPI_THREAD_MULTIPLE 3 */
} mpi;

static pthread_once_t mpi_once = PTHREAD_ONCE_INIT;

/* What the watchdog watches: the MPI call the calling thread is in. */
static struct {
  double timeout_s;     /* 0: no watchdog */
  pthread_mutex_t lock;
  double entered;       /* monotonic seconds; 0: in no MPI call */
  char call[224];       /* "train_step: tad.all_reduce: MPI_Allreduce
                           (bucket 3)" */
} watch = {0, PTHREAD_MUTEX_INITIALIZER, 0, ""};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void *watchdog(void *unused) {
  (void)unused;
  for (;;) {
    struct timespec tick = {1, 0};
    if (watch.timeout_s < 4) /* short timeouts (tests): a finer tick */
      tick = (struct timespec){0, 100 * 1000 * 1000};
    while (nanosleep(&tick, &tick) != 0 && errno == EINTR)
      ;
    pthread_mutex_lock(&watch.lock);
    double waited = watch.entered > 0 ? now_s() - watch.entered : 0;
    if (waited > watch.timeout_s) {
      fprintf(stderr,
              "tad: %s on rank %d of %d has waited %.0f s for the other "
              "ranks (TAD_COLLECTIVE_TIMEOUT=%g): a rank stopped calling "
              "collectives (it hangs, or caught an error and carried on); "
              "ending this process so that mpirun ends the job\n",
              watch.call, mpi.rank, mpi.size, waited, watch.timeout_s);
      fflush(stderr);
      _exit(124);
    }
    pthread_mutex_unlock(&watch.lock);
  }
  return NULL;
}

/* A thread of function `fn` enters an MPI call that waits for the other
 * ranks. */
static void watch_enter(const char *fn, const char *op, const char *call,
                        int64_t bucket) {
  if (watch.timeout_s <= 0)
    return;
  pthread_mutex_lock(&watch.lock);
  snprintf(watch.call, sizeof watch.call, "%s: %s: %s (bucket %lld)", fn, op,
           call, (long long)bucket);
  watch.entered = now_s();
  pthread_mutex_unlock(&watch.lock);
}

static void watch_leave(void) {
  if (watch.timeout_s <= 0)
    return;
  pthread_mutex_lock(&watch.lock);
  watch.entered = 0;
  pthread_mutex_unlock(&watch.lock);
}

/* Reads $TAD_COLLECTIVE_TIMEOUT and starts the watchdog; "" on success,
 * else why not (a malformed value). */
static const char *start_watchdog(void) {
  const char *text = getenv("TAD_COLLECTIVE_TIMEOUT");
  double timeout = 1800;
  if (text && *text) {
    char *end = NULL;
    timeout = strtod(text, &end);
    if (!end || *end || timeout < 0 || timeout != timeout)
      return "TAD_COLLECTIVE_TIMEOUT must be a number of seconds >= 0 (0: "
             "no watchdog)";
  }
  watch.timeout_s = timeout;
  if (timeout <= 0)
    return "";
  pthread_t thread;
  if (pthread_create(&thread, NULL, watchdog, NULL) != 0) {
    watch.timeout_s = 0;
    return "cannot start the collectives' watchdog thread";
  }
  pthread_detach(thread);
  return "";
}

static void set_load_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(mpi.error, sizeof mpi.error, fmt, ap);
  va_end(ap);
}

static void finalize_at_exit(void) {
  int finalized = 1;
  if (mpi.Finalized && mpi.Finalized(&finalized) == 0 && !finalized)
    mpi.Finalize();
}

/* MPI's message for `rc`, into buf. */
static const char *error_string(int rc, char *buf, int size) {
  int len = 0;
  buf[0] = 0;
  /* Open MPI's MPI_MAX_ERROR_STRING is 256. */
  if (size < 256 || !mpi.Error_string || mpi.Error_string(rc, buf, &len) != 0)
    snprintf(buf, (size_t)size, "unknown error");
  return buf;
}

static void start_communication_thread(void);

static void load_mpi(void) {
  const char *path = getenv("TAD_MPI_LIBRARY");
  const char *tried = path && *path ? path : "libmpi.so.40";
  mpi.lib = dlopen(tried, RTLD_NOW | RTLD_GLOBAL);
  if (!mpi.lib && !(path && *path)) {
    mpi.lib = dlopen("libmpi.so", RTLD_NOW | RTLD_GLOBAL);
  }
  if (!mpi.lib) {
    const char *why = dlerror();
    set_load_error("cannot load MPI (%s); install Open MPI (Debian: "
                   "libopenmpi3, with openmpi-bin for mpirun) or set "
                   "TAD_MPI_LIBRARY to its libmpi.so",
                   why ? why : tried);
    return;
  }
#define TAD_MPI_SYM(field, name)                                              \
  do {                                                                        \
    *(void **)&mpi.field = dlsym(mpi.lib, name);                              \
    if (!mpi.field) {                                                         \
      set_load_error("the MPI library %s has no symbol %s: tad supports Open " \
                     "MPI (set TAD_MPI_LIBRARY to Open MPI's libmpi.so)",     \
                     tried, name);                                            \
      return;                                                                 \
    }                                                                         \
  } while (0)
  TAD_MPI_SYM(Initialized, "MPI_Initialized");
  TAD_MPI_SYM(Finalized, "MPI_Finalized");
  TAD_MPI_SYM(Init_thread, "MPI_Init_thread");
  TAD_MPI_SYM(Query_thread, "MPI_Query_thread");
  TAD_MPI_SYM(Finalize, "MPI_Finalize");
  TAD_MPI_SYM(Comm_dup, "MPI_Comm_dup");
  TAD_MPI_SYM(Comm_set_errhandler, "MPI_Comm_set_errhandler");
  TAD_MPI_SYM(Comm_rank, "MPI_Comm_rank");
  TAD_MPI_SYM(Comm_size, "MPI_Comm_size");
  TAD_MPI_SYM(Allreduce, "MPI_Allreduce");
  TAD_MPI_SYM(Bcast, "MPI_Bcast");
  TAD_MPI_SYM(Barrier, "MPI_Barrier");
  TAD_MPI_SYM(Error_string, "MPI_Error_string");
  TAD_MPI_SYM(comm_world, "ompi_mpi_comm_world");
  TAD_MPI_SYM(t_float, "ompi_mpi_float");
  TAD_MPI_SYM(t_double, "ompi_mpi_double");
  TAD_MPI_SYM(t_int64, "ompi_mpi_int64_t");
  TAD_MPI_SYM(op_sum, "ompi_mpi_op_sum");
  TAD_MPI_SYM(op_max, "ompi_mpi_op_max");
  TAD_MPI_SYM(errors_return, "ompi_mpi_errors_return");
#undef TAD_MPI_SYM

  int initialised = 0, finalized = 0;
  mpi.Initialized(&initialised);
  mpi.Finalized(&finalized);
  if (finalized) {
    set_load_error("MPI has already been finalised in this process");
    return;
  }
  if (!initialised) {
    /* Serialized: the communication thread makes the calls. */
    int rc = mpi.Init_thread(NULL, NULL, 2 /* MPI_THREAD_SERIALIZED */,
                             &mpi.thread_level);
    if (rc != 0) {
      char buf[512];
      set_load_error("MPI_Init_thread failed: %s",
                     error_string(rc, buf, sizeof buf));
      return;
    }
    mpi.initialised_by_us = 1;
    atexit(finalize_at_exit);
  } else {
    mpi.Query_thread(&mpi.thread_level);
  }
  char buf[512];
  int rc = mpi.Comm_dup(mpi.comm_world, &mpi.comm);
  if (rc == 0)
    rc = mpi.Comm_set_errhandler(mpi.comm, mpi.errors_return);
  if (rc == 0)
    rc = mpi.Comm_rank(mpi.comm, &mpi.rank);
  if (rc == 0)
    rc = mpi.Comm_size(mpi.comm, &mpi.size);
  if (rc != 0) {
    set_load_error("cannot set up a communicator: %s",
                   error_string(rc, buf, sizeof buf));
    return;
  }
  const char *why = start_watchdog();
  if (*why) {
    set_load_error("%s", why);
    return;
  }
  start_communication_thread();
  mpi.ok = 1;
}

static _Noreturn void fail(const char *fmt, ...) TAD_PRINTF_FORMAT(1, 2);
static void fail(const char *fmt, ...) {
  char message[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(message, sizeof message, fmt, ap);
  va_end(ap);
  __tad_fail_runtime(message);
}

static void ensure_mpi(const char *op) {
  pthread_once(&mpi_once, load_mpi);
  if (!mpi.ok)
    fail("%s: %s", op, mpi.error);
}


typedef struct memref_1d {
  char *allocated;
  char *aligned;
  int64_t offset;
  int64_t size;
  int64_t stride;
} memref_1d;

/* One collective of one bucket, from its start to its wait. */
typedef struct job {
  int64_t kind, dtype, root, signature, bucket, count;
  char *data;        /* the bucket, reduced in place */
  char fn[96];       /* the function that started it, for the watchdog */
  int done;
  char error[1024];  /* why it failed; "" when it did not */
  struct job *next;
} job;

/* The communication thread and its queue (jobs in start order). */
static struct {
  int enabled;          /* 0: jobs run in the calling thread, at start */
  pthread_mutex_t lock;
  pthread_cond_t work;  /* a job was queued */
  pthread_cond_t done;  /* a job finished */
  job *head, *tail;     /* queued, not yet taken */
  int busy;             /* the thread runs a job */
  char poisoned[1024];  /* after a failure: why no further collective runs */
} comm = {0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
          PTHREAD_COND_INITIALIZER, NULL, NULL, 0, ""};

static const char *op_name(int64_t kind) {
  return kind == 2 ? "tad.broadcast_from"
         : kind == 3 ? "tad.barrier"
                     : "tad.all_reduce";
}

static void job_error(job *j, const char *fmt, ...) TAD_PRINTF_FORMAT(2, 3);
static void job_error(job *j, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(j->error, sizeof j->error, fmt, ap);
  va_end(ap);
}

/* j->error := the failure of `call` with code rc; returns whether rc is 0. */
static int checked(job *j, int rc, const char *call) {
  if (rc == 0)
    return 1;
  char buf[512];
  job_error(j, "%s: %s failed on rank %d of %d: %s (MPI error %d)",
            op_name(j->kind), call, mpi.rank, mpi.size,
            error_string(rc, buf, sizeof buf), rc);
  return 0;
}

/* Runs `j`: the consistency check, then the collective on j->data in
 * place. On failure j->error says why. */
static void run_job(job *j) {
  const char *op = op_name(j->kind);
  if (j->kind == 3) {
    watch_enter(j->fn, op, "MPI_Barrier", 0);
    int rc = mpi.Barrier(mpi.comm);
    watch_leave();
    checked(j, rc, "MPI_Barrier");
    return;
  }
  /* Do the ranks agree? */
  int64_t mine[6] = {j->count, j->signature, j->kind,
                     j->root,  j->bucket,    j->dtype};
  int64_t local[12], global[12];
  for (int i = 0; i < 6; ++i) {
    local[i] = mine[i];
    local[6 + i] = mine[i] == INT64_MIN ? INT64_MAX : -mine[i];
  }
  watch_enter(j->fn, op, "MPI_Allreduce (the consistency check)", j->bucket);
  int rc = mpi.Allreduce(local, global, 12, mpi.t_int64, mpi.op_max, mpi.comm);
  watch_leave();
  if (!checked(j, rc, "MPI_Allreduce (the consistency check)"))
    return;
  int agree = 1;
  for (int i = 0; i < 6; ++i)
    if (global[i] != mine[i] || -global[6 + i] != mine[i])
      agree = 0;
  if (!agree) {
    job_error(
        j,
        "%s: the ranks run different programs: bucket %lld of this rank "
        "(%d of %d) has %lld %s elements and signature %016llx, but the "
        "ranks have between %lld and %lld elements%s%s; compile the same "
        "model with the same shapes on every rank",
        op, (long long)j->bucket, mpi.rank, mpi.size, (long long)j->count,
        j->dtype == TAD_DTYPE_F64 ? "f64" : "f32",
        (unsigned long long)j->signature, (long long)-global[6],
        (long long)global[0],
        global[1] != -global[7] ? ", and different signatures (operand types)"
                                : "",
        global[2] != -global[8] || global[3] != -global[9] ||
                global[5] != -global[11]
            ? ", or different collectives"
            : "");
    return;
  }
  if (j->kind == 2 && j->root >= mpi.size) {
    job_error(j, "%s: root %lld is not a rank (the job has %d)", op,
              (long long)j->root, mpi.size);
    return;
  }
  int64_t elem = j->dtype == TAD_DTYPE_F64 ? 8 : 4;
  mpi_handle type = j->dtype == TAD_DTYPE_F64 ? mpi.t_double : mpi.t_float;
  const int64_t chunk = (int64_t)1 << 30; /* MPI counts are int */
  void *in_place = (void *)1;             /* Open MPI's MPI_IN_PLACE */
  for (int64_t done = 0; done < j->count; done += chunk) {
    int n = (int)(j->count - done < chunk ? j->count - done : chunk);
    char *part = j->data + done * elem;
    const char *call = j->kind == 2 ? "MPI_Bcast" : "MPI_Allreduce";
    watch_enter(j->fn, op, call, j->bucket);
    rc = j->kind == 2 ? mpi.Bcast(part, n, type, (int)j->root, mpi.comm)
                      : mpi.Allreduce(in_place, part, n, type, mpi.op_sum,
                                      mpi.comm);
    watch_leave();
    if (!checked(j, rc, call))
      return;
  }
  if (j->kind == 1 && mpi.size > 1) {
    if (j->dtype == TAD_DTYPE_F64) {
      double *d = (double *)j->data, s = (double)mpi.size;
      for (int64_t i = 0; i < j->count; ++i)
        d[i] /= s;
    } else {
      float *d = (float *)j->data, s = (float)mpi.size;
      for (int64_t i = 0; i < j->count; ++i)
        d[i] /= s;
    }
  }
}

/* Runs `j` unless an earlier collective of this process failed: the ranks
 * would no longer agree on which collective comes next. Called with
 * comm.lock not held. */
static void run_or_refuse(job *j) {
  pthread_mutex_lock(&comm.lock);
  int refused = comm.poisoned[0] != 0;
  if (refused)
    job_error(j, "%s: not run: %s", op_name(j->kind), comm.poisoned);
  pthread_mutex_unlock(&comm.lock);
  if (refused)
    return;
  run_job(j);
  if (j->error[0]) {
    pthread_mutex_lock(&comm.lock);
    if (!comm.poisoned[0])
      snprintf(comm.poisoned, sizeof comm.poisoned,
               "an earlier collective of this rank failed (%.900s)", j->error);
    pthread_mutex_unlock(&comm.lock);
  }
}

static void *communication_thread(void *unused) {
  (void)unused;
  pthread_mutex_lock(&comm.lock);
  for (;;) {
    while (!comm.head)
      pthread_cond_wait(&comm.work, &comm.lock);
    job *j = comm.head;
    comm.head = j->next;
    if (!comm.head)
      comm.tail = NULL;
    comm.busy = 1;
    pthread_mutex_unlock(&comm.lock);
    run_or_refuse(j);
    pthread_mutex_lock(&comm.lock);
    comm.busy = 0;
    j->done = 1;
    pthread_cond_broadcast(&comm.done);
  }
  return NULL;
}

/* Overlap when the caller allows it ($TAD_COLLECTIVE_OVERLAP, default on)
 * and MPI allows calls from another thread than the main one. */
static void start_communication_thread(void) {
  const char *text = getenv("TAD_COLLECTIVE_OVERLAP");
  if (text && strcmp(text, "0") == 0)
    return;
  if (mpi.thread_level < 2 /* MPI_THREAD_SERIALIZED */)
    return;
  pthread_t thread;
  if (pthread_create(&thread, NULL, communication_thread, NULL) != 0)
    return;
  pthread_detach(thread);
  comm.enabled = 1;
}

static void fail_job(job *j) {
  char message[1024];
  snprintf(message, sizeof message, "%s", j->error);
  free(j);
  __tad_fail_runtime(message);
}

static job *new_job(int64_t kind, int64_t dtype, int64_t root,
                    int64_t signature, int64_t bucket, int64_t count,
                    char *data) {
  job *j = calloc(1, sizeof *j);
  if (!j)
    fail("%s: cannot allocate the collective's record", op_name(kind));
  *j = (job){kind, dtype, root, signature, bucket, count, data, "", 0, "",
             NULL};
  tad_call_frame *frame = __tad_current_call();
  snprintf(j->fn, sizeof j->fn, "%s",
           frame && frame->fn && frame->fn->name ? frame->fn->name : "tad");
  return j;
}

/* Queues `j` for the communication thread, or runs it now without one.
 * Returns its handle. */
static int64_t submit(job *j) {
  if (!comm.enabled) {
    run_or_refuse(j);
    j->done = 1;
    if (j->error[0])
      fail_job(j);
    return (int64_t)(intptr_t)j;
  }
  pthread_mutex_lock(&comm.lock);
  if (comm.tail)
    comm.tail->next = j;
  else
    comm.head = j;
  comm.tail = j;
  pthread_cond_signal(&comm.work);
  pthread_mutex_unlock(&comm.lock);
  return (int64_t)(intptr_t)j;
}

/* Waits until the job of `handle` has run; a failure ends the call. */
static void wait_for(int64_t handle) {
  job *j = (job *)(intptr_t)handle;
  pthread_mutex_lock(&comm.lock);
  while (!j->done)
    pthread_cond_wait(&comm.done, &comm.lock);
  pthread_mutex_unlock(&comm.lock);
  if (j->error[0])
    fail_job(j);
  free(j);
}

/* The call is ending with a failure (a run-time check, memory) while
 * buckets it started may be in flight into its temporaries: they must end
 * before the temporaries are freed. All of them run, queued ones too: the
 * other ranks started the same buckets (they ran the same program up to
 * here), so skipping one would leave them waiting; a rank that failed
 * alone leaves the others waiting for its later buckets either way, until
 * the watchdog ends the job. Their records are leaked (their waits will
 * not run). */
void __tad_mpi_abandon_collectives(void) {
  if (!comm.enabled)
    return;
  pthread_mutex_lock(&comm.lock);
  while (comm.head || comm.busy)
    pthread_cond_wait(&comm.done, &comm.lock);
  pthread_mutex_unlock(&comm.lock);
}

static job *start(int64_t kind, int64_t dtype, int64_t root,
                  int64_t signature, int64_t bucket, int64_t rank_in,
                  void *in_desc, int64_t rank_out, void *out_desc) {
  const char *op = op_name(kind);
  ensure_mpi(op);
  memref_1d *in = in_desc, *out = out_desc;
  int64_t elem = dtype == TAD_DTYPE_F64 ? 8 : 4;
  if (rank_in != 1 || rank_out != 1 || in->size != out->size ||
      (in->size > 1 && (in->stride != 1 || out->stride != 1)))
    fail("%s: internal error: bucket %lld is not a contiguous 1-D buffer", op,
         (long long)bucket);
  char *src = in->aligned + in->offset * elem;
  char *dst = out->aligned + out->offset * elem;
  /* The collective reduces `out` in place: `in` may be freed or reused
   * as soon as this returns. */
  if (in->size > 0)
    memcpy(dst, src, (size_t)(in->size * elem));
  return new_job(kind, dtype, root, signature, bucket, in->size, dst);
}

TAD_HIDDEN int64_t _tad_mpi_start_f32(int64_t kind, int64_t dtype,
                                      int64_t root, int64_t signature,
                                      int64_t bucket, int64_t rank_in,
                                      void *in, int64_t rank_out, void *out);
TAD_HIDDEN int64_t _tad_mpi_start_f64(int64_t kind, int64_t dtype,
                                      int64_t root, int64_t signature,
                                      int64_t bucket, int64_t rank_in,
                                      void *in, int64_t rank_out, void *out);
TAD_HIDDEN void _tad_mpi_wait_f32(int64_t handle, int64_t rank_out, void *out);
TAD_HIDDEN void _tad_mpi_wait_f64(int64_t handle, int64_t rank_out, void *out);
TAD_HIDDEN void _tad_mpi_barrier(void);

int64_t _tad_mpi_start_f32(int64_t kind, int64_t dtype, int64_t root,
                           int64_t signature, int64_t bucket, int64_t rank_in,
                           void *in, int64_t rank_out, void *out) {
  return submit(start(kind, TAD_DTYPE_F32, root, signature, bucket, rank_in,
                      in, rank_out, out));
}

int64_t _tad_mpi_start_f64(int64_t kind, int64_t dtype, int64_t root,
                           int64_t signature, int64_t bucket, int64_t rank_in,
                           void *in, int64_t rank_out, void *out) {
  return submit(start(kind, TAD_DTYPE_F64, root, signature, bucket, rank_in,
                      in, rank_out, out));
}

/* `out` is the bucket's result buffer, passed so that the generated code
 * keeps it alive until here. */
void _tad_mpi_wait_f32(int64_t handle, int64_t rank_out, void *out) {
  (void)rank_out;
  (void)out;
  wait_for(handle);
}

void _tad_mpi_wait_f64(int64_t handle, int64_t rank_out, void *out) {
  (void)rank_out;
  (void)out;
  wait_for(handle);
}

void _tad_mpi_barrier(void) {
  ensure_mpi("tad.barrier");
  wait_for(submit(new_job(3, TAD_DTYPE_F32, 0, 0, 0, 0, NULL)));
}
