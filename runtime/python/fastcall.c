/* tad._fastcall: the per-call path of tad.Function for NumPy arrays.
 *
 * A small module's entry point runs in a few microseconds, and building the
 * tad_tensor arrays with ctypes costs as much again (a ctypes object per
 * pointer, attribute writes, a libffi call). This extension reads each
 * array through the buffer protocol and calls the entry point directly.
 * It only handles the common case; for anything else it returns
 * TADFC_FALLBACK without calling, and the Python loader takes its general
 * path (conversions, device arrays, error messages).
 *
 * The module is optional: tad/module.py uses the ctypes path when it is not
 * built.
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <string.h>

#include "tad/runtime.h"

/* Returned instead of a tad_status when nothing was called. */
#define TADFC_FALLBACK (-1)

/* Tensors held on the stack; calls with more use the heap. */
#define TADFC_INLINE 32

_Static_assert(sizeof(Py_ssize_t) == sizeof(int64_t),
               "shapes are passed as the buffers' Py_ssize_t arrays");

/* The tad_dtype of a buffer's struct-module format, or -1. NumPy exports
 * native-order arrays with a one-letter format. */
static int dtypeOf(const Py_buffer *view) {
  const char *f = view->format;
  if (!f || !f[0] || f[1])
    return -1;
  switch (f[0]) {
  case 'f':
    return view->itemsize == 4 ? TAD_DTYPE_F32 : -1;
  case 'd':
    return view->itemsize == 8 ? TAD_DTYPE_F64 : -1;
  case 'i':
  case 'l':
  case 'q':
    if (view->itemsize == 8)
      return TAD_DTYPE_I64;
    return view->itemsize == 4 ? TAD_DTYPE_I32 : -1;
  case '?':
    return view->itemsize == 1 ? TAD_DTYPE_BOOL : -1;
  case 'e':
    return view->itemsize == 2 ? TAD_DTYPE_F16 : -1;
  default:
    return -1;
  }
}

/* Fills `tensor` from `object`'s buffer (kept in `view` until released).
 * Returns 0, or -1 with no buffer held and no Python error set. */
static int exportTensor(PyObject *object, int writable, Py_buffer *view,
                        tad_tensor *tensor) {
  int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT;
  if (writable)
    flags |= PyBUF_WRITABLE;
  if (PyObject_GetBuffer(object, view, flags) != 0) {
    PyErr_Clear();
    return -1;
  }
  int dtype = dtypeOf(view);
  if (dtype < 0 || (uintptr_t)view->buf % (uintptr_t)view->itemsize != 0) {
    PyBuffer_Release(view);
    return -1;
  }
  tensor->data = view->buf;
  tensor->shape = (const int64_t *)view->shape;
  tensor->rank = view->ndim;
  tensor->dtype = dtype;
  return 0;
}

/* call(entry, args, results) -> status
 *
 * `entry` is a tad_entry_fn's address; `args` and `results` are sequences
 * of C-contiguous, aligned arrays (results writable). Returns the entry
 * point's tad_status, or TADFC_FALLBACK if some array does not qualify. */
static PyObject *fastcall_call(PyObject *self, PyObject *const *argv,
                               Py_ssize_t argc) {
  (void)self;
  if (argc != 3) {
    PyErr_SetString(PyExc_TypeError, "call(entry, args, results)");
    return NULL;
  }
  tad_entry_fn entry = (tad_entry_fn)PyLong_AsVoidPtr(argv[0]);
  if (!entry) {
    if (!PyErr_Occurred())
      PyErr_SetString(PyExc_ValueError, "call: null entry point");
    return NULL;
  }
  PyObject *args = PySequence_Fast(argv[1], "call: args must be a sequence");
  if (!args)
    return NULL;
  PyObject *results =
      PySequence_Fast(argv[2], "call: results must be a sequence");
  if (!results) {
    Py_DECREF(args);
    return NULL;
  }
  Py_ssize_t numArgs = PySequence_Fast_GET_SIZE(args);
  Py_ssize_t numResults = PySequence_Fast_GET_SIZE(results);
  Py_ssize_t total = numArgs + numResults;

  tad_tensor inlineTensors[TADFC_INLINE];
  Py_buffer inlineViews[TADFC_INLINE];
  tad_tensor *tensors = inlineTensors;
  Py_buffer *views = inlineViews;
  if (total > TADFC_INLINE) {
    tensors = PyMem_Malloc(total * sizeof(tad_tensor));
    views = PyMem_Malloc(total * sizeof(Py_buffer));
    if (!tensors || !views) {
      PyMem_Free(tensors);
      PyMem_Free(views);
      Py_DECREF(args);
      Py_DECREF(results);
      return PyErr_NoMemory();
    }
  }

  long status = TADFC_FALLBACK;
  Py_ssize_t held = 0;
  for (; held < total; ++held) {
    int isResult = held >= numArgs;
    PyObject *object =
        isResult ? PySequence_Fast_GET_ITEM(results, held - numArgs)
                 : PySequence_Fast_GET_ITEM(args, held);
    if (exportTensor(object, isResult, &views[held], &tensors[held]) != 0)
      break;
  }
  if (held == total) {
    /* Large modules run for milliseconds: other Python threads may run
     * meanwhile (the buffers stay exported, so the arrays cannot be
     * resized under the call). */
    Py_BEGIN_ALLOW_THREADS
    status = entry(tensors, numArgs, numResults ? tensors + numArgs : NULL,
                   numResults);
    Py_END_ALLOW_THREADS
  }
  while (held > 0)
    PyBuffer_Release(&views[--held]);
  if (tensors != inlineTensors) {
    PyMem_Free(tensors);
    PyMem_Free(views);
  }
  Py_DECREF(args);
  Py_DECREF(results);
  return PyLong_FromLong(status);
}

static PyMethodDef fastcallMethods[] = {
    {"call", (PyCFunction)(void (*)(void))fastcall_call, METH_FASTCALL,
     "call(entry, args, results) -> tad_status, or -1 when an array does not "
     "qualify (nothing was called)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef fastcallModule = {
    PyModuleDef_HEAD_INIT, "_fastcall",
    "Direct calls of tad entry points with NumPy arrays.", -1,
    fastcallMethods,       NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fastcall(void) {
  PyObject *module = PyModule_Create(&fastcallModule);
  if (module && PyModule_AddIntConstant(module, "FALLBACK", TADFC_FALLBACK)) {
    Py_DECREF(module);
    return NULL;
  }
  return module;
}
