// geometry is the C library of the OpenDyn example, described by
// geometry.json. Build it with
//
//	gcc -shared -fPIC -o libgeometry.so c/geometry.c -lm

#include <math.h>
#include <stdio.h>

static const double pi = 3.14159265358979323846;

// circle_area returns the area of a circle.
double circle_area(double radius) { return pi * radius * radius; }

// distance returns the distance between two points.
double distance(double x1, double y1, double x2, double y2) { return hypot(x2 - x1, y2 - y1); }

// describe writes a sentence about a circle into text, which holds 64 bytes,
// and returns 0, or 1 for a negative radius.
int describe(double radius, char *text) {
	if (radius < 0) {
		snprintf(text, 64, "no circle has a negative radius");
		return 1;
	}
	snprintf(text, 64, "a circle of radius %g has an area of %.4g", radius, circle_area(radius));
	return 0;
}

// normalize scales the n coordinates of v, in place, to a vector of length 1,
// and returns its length before.
double normalize(double *v, int n) {
	double s = 0;
	for (int i = 0; i < n; i++) s += v[i] * v[i];
	double len = sqrt(s);
	if (len > 0)
		for (int i = 0; i < n; i++) v[i] /= len;
	return len;
}

// version returns the library's version.
const char *version(void) { return "geometry 1.0"; }
