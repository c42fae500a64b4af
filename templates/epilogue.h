/*! templates/epilogue.h - the end of every generated header. */
#endif
