/*! templates/epilogue.h - the end of every generated header: the implementation part of run()
 * (kernels and each function's run(), where the user defines P_IMPLEMENTATION), then the guard's end. */
/* @RUN_IMPL@ */
#endif
