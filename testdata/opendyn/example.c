// The library upstream's OpenDyn example (testdata/golden/opendyn-example)
// describes: add and multiply.

int add(int a, int b) { return a + b; }

float multiply(float a, float b) { return a * b; }
