// save_soln: keep the state at the start of the step (cells, direct).
inline void save_soln(const double *q, double *qold) {
  for (int n = 0; n < 4; n++)
    qold[n] = q[n];
}
