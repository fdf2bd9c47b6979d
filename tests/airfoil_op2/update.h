// update, as current OP2 programs write it: the step, the squared change
// summed into rms, and the largest squared change with the cell where it
// happened (op_arg_info, argmax through op_arg_idx).
inline void update(const float *qold, float *q, float *res, const float *adt, float *rms, float *maxerr,
                   const int *idx, int *errloc) {
  float del, adti;

  adti = 1.0f / (*adt);

  for (int n = 0; n < 4; n++) {
    del = adti * res[n];
    q[n] = qold[n] - del;
    res[n] = 0.0f;
    float sqdel = del * del;
    *rms += sqdel;
    if (sqdel > *maxerr) {
      *maxerr = sqdel;
      *errloc = *idx;
    }
  }
}
