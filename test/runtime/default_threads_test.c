/* tlc_default_num_threads() against the count the test runner expects (argv[1]): run under
 * `taskset -c 0` it must be 1, however many cores the machine has. */
#include "tlc/runtime.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: default_threads_test EXPECTED\n");
    return 2;
  }
  int expected = atoi(argv[1]), got = tlc_default_num_threads();
  printf("tlc_default_num_threads() = %d, expected %d\n", got, expected);
  return got == expected ? 0 : 1;
}
