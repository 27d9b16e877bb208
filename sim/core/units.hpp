// Physical quantities of scenarios, parsed once from text into SI base units.
//   size       B, KB MB GB TB PB (base 10), KiB MiB GiB TiB PiB (base 2)          -> bytes
//   bandwidth  Bps KBps MBps GBps TBps, KiBps MiBps GiBps TiBps, bps Kbps Mbps Gbps Tbps -> bytes/s
//   duration   ns us ms s min h d y (y = 365 d)                                      -> seconds
//   rate       /s /min /h, optionally with k M G (50k/s)                            -> events/s
//   compute    Flops KFlops MFlops GFlops TFlops PFlops EFlops                       -> flop (or flop/s)
//   count      plain number, or with k M G T (powers of 10)                          -> number
// A number without a unit is accepted only when it is zero (or for counts).
#pragma once
#include <string>
#include <string_view>

namespace llsim {

enum class Dimension { Size, Bandwidth, Duration, Rate, Compute, Power, Count, Number };

const char* dimension_name(Dimension d);
const char* dimension_example(Dimension d);  // e.g. "10GB", used in error messages

// A value in SI base units as errors and the console state it: "31.1 GB", "1.2 GB/s", "3.2 min",
// "788 /s", "100 TFlops"; counts and plain numbers in full.
std::string format_quantity(double value, Dimension d, int digits = 3);

// Parses "2.5GBps" (spaces between number and unit allowed). Throws std::invalid_argument with
// a message that says what was expected.
double parse_quantity(std::string_view text, Dimension d);

// Strong types for the quantities models pass around (value in SI base units).
struct Bytes {
  double value = 0;
};
struct BytesPerSecond {
  double value = 0;
};
struct Seconds {
  double value = 0;
};

}  // namespace llsim
