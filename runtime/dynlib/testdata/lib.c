// The library the tests of runtime/dynlib build with the C compiler. Every
// function but set_watch is int f(int, int), which internal/ctest calls.

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

// The watch of internal/ctest, in the test program's memory: what checked
// and the destructor record, read after the library is unloaded.
struct watch {
	atomic_int unloaded, inflight, late, busy_at_unload, calls;
};
static struct watch *_Atomic watch_;

void set_watch(struct watch *w) { atomic_store(&watch_, w); }

// checked returns a + b, and records in the watch that it ran, and whether
// the library had been unloaded (its destructor had run) when it began.
int checked(int a, int b) {
	struct watch *w = atomic_load(&watch_);
	if (w == NULL) {
		return a + b;
	}
	atomic_fetch_add(&w->inflight, 1);
	atomic_fetch_add(&w->calls, 1);
	if (atomic_load(&w->unloaded)) {
		atomic_fetch_add(&w->late, 1);
	}
	volatile int r = a;
	for (int i = 0; i < 20000; i++) { // a call long enough to be caught in
		r = r + 0;
	}
	r = r + b;
	atomic_fetch_sub(&w->inflight, 1);
	return r;
}

// unload, run by dlclose before it unmaps the library, records that it ran
// and whether a call of checked was in progress, then looks again for a while:
// a call that begins now is recorded as late by checked.
__attribute__((destructor)) static void unload(void) {
	struct watch *w = atomic_load(&watch_);
	if (w == NULL) {
		return;
	}
	atomic_store(&w->unloaded, 1);
	for (int i = 0; i < 20000; i++) {
		if (atomic_load(&w->inflight) != 0) {
			atomic_fetch_add(&w->busy_at_unload, 1);
			break;
		}
	}
}
