// cunp/sparse.hpp: scipy.sparse (and cupyx.scipy.sparse) for cunp: the family's umbrella.
// sparse_matrix.hpp: csr_matrix, csc_matrix, coo_matrix (construction, conversions, canonical
// form); sparse_construct.hpp: eye, identity, diags, kron, hstack, vstack, tril, triu;
// sparse_products.hpp: products and arithmetic; sparse_linalg.hpp: scipy.sparse.linalg's norm;
// sparse_iterative.hpp: its cg and gmres; sparse_random.hpp: scipy.sparse.random.
#pragma once

#include "cunp/sparse_construct.hpp"
#include "cunp/sparse_iterative.hpp"
#include "cunp/sparse_eigen.hpp"
#include "cunp/sparse_linalg.hpp"
#include "cunp/sparse_matrix.hpp"
#include "cunp/sparse_products.hpp"
#include "cunp/sparse_random.hpp"
