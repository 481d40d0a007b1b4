// cunp/print.hpp: (being written)
#pragma once
#include "cunp/ndarray.hpp"
