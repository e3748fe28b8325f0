/*
 * hello: the smallest Myrmex program, an ordinary static Linux binary that
 * musl's start-up code runs unmodified.
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	printf("Hello from Myrmex user space! I am %s, pid %d, with %d argument(s).\n",
	       argv[0], (int)getpid(), argc - 1);
	return 0;
}
