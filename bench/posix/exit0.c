/*
 * exit0: the program posix.fork_exec_wait executes in its child. A static
 * musl program that returns at once: what the figure measures is the fork,
 * the execve (reading and loading this file) and the wait, not the program.
 */
int main(void)
{
	return 0;
}
