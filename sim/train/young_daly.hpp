// Optimal checkpoint intervals (docs/phases/train.md), C = checkpoint cost, M = job MTBF:
//   Young: T = sqrt(2 C M)
//   Daly:  T = sqrt(2 C M) [1 + sqrt(C / 2M) / 3 + (C / 2M) / 9] - C   if C < 2M, else T = M
// Sources: Young, CACM 1974; Daly, FGCS 2006.
#pragma once

namespace llsim {

double young_interval(double cost_s, double mtbf_s);
double daly_interval(double cost_s, double mtbf_s);

}  // namespace llsim
