/* Data-parallel training from C: the step of dp_step.mlir on every rank of
 * an MPI job.
 *
 *   tadc dp_step.mlir --vjp=loss -o libdp_step.so
 *   cc -I<tad include dir> train.c -L. -ldp_step -Wl,-rpath,. -lm -o train
 *   mpirun -np 2 ./train          # as root, on few cores, in a container:
 *   mpirun -np 2 --allow-run-as-root --oversubscribe --bind-to none \
 *          --mca btl self,vader --mca btl_vader_single_copy_mechanism none ./train
 *
 * The program is not linked with MPI: the module's runtime loads Open MPI
 * and initialises it at the first collective (and finalises it at exit).
 * Built with -DCALLER_INIT_MPI (and MPI's include and library flags), the
 * program initialises and finalises MPI itself, and the runtime leaves it
 * so. Each rank takes its 4 rows of every batch of 8 (2 ranks); the rank
 * comes from mpirun's environment (OMPI_COMM_WORLD_RANK) or from MPI.
 *
 * Each rank starts from different parameters; sync_parameters gives all of
 * them rank 0's. After STEPS steps the program compares its parameters with
 * plain C gradient descent on the whole batches, in one process.
 */
#include "tad/runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef CALLER_INIT_MPI
#include <mpi.h>
#endif

int32_t train_step(const tad_tensor *, int64_t, tad_tensor *, int64_t);
int32_t sync_parameters(const tad_tensor *, int64_t, tad_tensor *, int64_t);

enum { BATCH = 8, PART = 4, FEATURES = 3, STEPS = 20 };
static const double LR = 0.1;

static double x_at(int step, int i, int j) {
  return sin(0.7 * (step * BATCH + i) + 1.3 * j);
}
static double y_at(int step, int i) {
  return 1.0 * x_at(step, i, 0) - 2.0 * x_at(step, i, 1) +
         0.5 * x_at(step, i, 2) + 0.3 + 0.01 * cos(i + step);
}

static tad_tensor tensor(double *data, const int64_t *shape, int32_t rank) {
  tad_tensor t = {data, shape, rank, TAD_DTYPE_F64};
  return t;
}

static int fail(const char *what, int32_t status, int rank) {
  fprintf(stderr, "rank %d: %s failed with status %d: %s\n", rank, what,
          (int)status, tad_last_error());
  return 1;
}

int main(int argc, char **argv) {
  int rank = 0, size = 1;
#ifdef CALLER_INIT_MPI
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
#else
  (void)argc, (void)argv;
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  const char *s = getenv("OMPI_COMM_WORLD_SIZE");
  if (r && s)
    rank = atoi(r), size = atoi(s);
#endif
  if (size * PART != BATCH) {
    fprintf(stderr, "rank %d: run with %d ranks (mpirun -np %d), not %d\n",
            rank, BATCH / PART, BATCH / PART, size);
    return 1;
  }

  static const int64_t x_shape[] = {PART, FEATURES}, y_shape[] = {PART, 1},
                       w_shape[] = {FEATURES, 1}, b_shape[] = {1};
  double w[2][FEATURES], b[2][1], loss = 0;
  int cur = 0;
  for (int j = 0; j < FEATURES; ++j)
    w[0][j] = 0.1 * (rank + 1) * (j + 1); /* differs across ranks */
  b[0][0] = -0.2 * rank;

  /* Rank 0's parameters everywhere. */
  tad_tensor params[2] = {tensor(w[0], w_shape, 2), tensor(b[0], b_shape, 1)};
  tad_tensor synced[2] = {tensor(w[1], w_shape, 2), tensor(b[1], b_shape, 1)};
  int32_t status = sync_parameters(params, 2, synced, 2);
  if (status != TAD_OK)
    return fail("sync_parameters", status, rank);
  cur = 1;

  for (int step = 0; step < STEPS; ++step) {
    double x[PART][FEATURES], y[PART][1];
    for (int i = 0; i < PART; ++i) {
      for (int j = 0; j < FEATURES; ++j)
        x[i][j] = x_at(step, rank * PART + i, j);
      y[i][0] = y_at(step, rank * PART + i);
    }
    tad_tensor args[4] = {tensor(&x[0][0], x_shape, 2),
                          tensor(&y[0][0], y_shape, 2),
                          tensor(w[cur], w_shape, 2),
                          tensor(b[cur], b_shape, 1)};
    tad_tensor results[3] = {tensor(&loss, NULL, 0),
                             tensor(w[1 - cur], w_shape, 2),
                             tensor(b[1 - cur], b_shape, 1)};
    status = train_step(args, 4, results, 3);
    if (status != TAD_OK)
      return fail("train_step", status, rank);
    cur = 1 - cur;
  }

  /* The same training in one process on the whole batches, from rank 0's
   * initial parameters. */
  double rw[FEATURES], rb = 0.0, rloss = 0;
  for (int j = 0; j < FEATURES; ++j)
    rw[j] = 0.1 * (j + 1);
  for (int step = 0; step < STEPS; ++step) {
    double gw[FEATURES] = {0}, gb = 0;
    rloss = 0;
    for (int i = 0; i < BATCH; ++i) {
      double p = rb;
      for (int j = 0; j < FEATURES; ++j)
        p += x_at(step, i, j) * rw[j];
      double e = p - y_at(step, i);
      rloss += e * e / BATCH;
      for (int j = 0; j < FEATURES; ++j)
        gw[j] += 2.0 * e * x_at(step, i, j) / BATCH;
      gb += 2.0 * e / BATCH;
    }
    for (int j = 0; j < FEATURES; ++j)
      rw[j] -= LR * gw[j];
    rb -= LR * gb;
  }
  double err = fabs(b[cur][0] - rb);
  for (int j = 0; j < FEATURES; ++j)
    err = fmax(err, fabs(w[cur][j] - rw[j]));
  err = fmax(err, fabs(loss - rloss));
  printf("rank %d of %d: loss %.6f, w = [%.6f, %.6f, %.6f], b = %.6f; "
         "largest difference from one process %.1e: %s\n",
         rank, size, loss, w[cur][0], w[cur][1], w[cur][2], b[cur][0], err,
         err <= 1e-12 ? "OK" : "WRONG");
#ifdef CALLER_INIT_MPI
  MPI_Finalize();
#endif
  return err <= 1e-12 ? 0 : 1;
}
