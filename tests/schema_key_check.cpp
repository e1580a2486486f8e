// Compiled by ctest with -DMEMBENCH_KEY="...": a counter the schema lists compiles, one it
// does not list must not (schema.key_compiles, schema.unknown_key_does_not_compile).
#include "common/schema.hpp"

int main() { return static_cast<int>(membench::schema::counter(MEMBENCH_KEY).key.size()); }
