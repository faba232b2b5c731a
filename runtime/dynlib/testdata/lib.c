// The library the tests of runtime/dynlib build with the C compiler. Every
// function is int f(int, int), which internal/ctest calls.

#define _POSIX_C_SOURCE 199309L
#include <stdatomic.h>
#include <time.h>

int add(int a, int b) { return a + b; }

int sub(int a, int b) { return a - b; }

static atomic_int released, entered;

// wait returns once release has been called (1), or after about 10 seconds
// (0), so that a failing test does not hang.
int wait(int a, int b) {
	(void)a;
	(void)b;
	atomic_store(&entered, 1);
	struct timespec ms = {0, 1000000};
	for (int i = 0; i < 10000; i++) {
		if (atomic_load(&released)) {
			return 1;
		}
		nanosleep(&ms, NULL);
	}
	return 0;
}

// release makes wait return.
int release(int a, int b) {
	(void)a;
	(void)b;
	atomic_store(&released, 1);
	return 0;
}

// waiting returns 1 once wait has been called.
int waiting(int a, int b) {
	(void)a;
	(void)b;
	return atomic_load(&entered);
}
