// Pasting "/" and "/" makes a comment, not a token.
#define P(a, b) a##b
int x = P(/, /);
