/*
 * kmain: brings the machine up in dependency order and starts the first
 * program, the first boot module, as pid 1. The boot context then becomes
 * the idle thread.
 */
#include <kernel/arch.h>
#include <kernel/boot.h>
#include <kernel/ipc.h>
#include <kernel/device.h>
#include <kernel/klock.h>
#include <kernel/panic.h>
#include <kernel/personality.h>
#include <kernel/pmm.h>
#include <kernel/printk.h>
#include <kernel/proc.h>
#include <kernel/sched.h>
#include <kernel/string.h>
#include <kernel/time.h>
#include <kernel/vm.h>
#include <myrmex/syscall.h>

#define INIT_MAX_ARGS 32

/* Splits the init module's command line into argv; argv[0] is the module name. */
static int split_cmdline(char *line, const char *name, const char **argv)
{
	int argc = 0;
	argv[argc++] = name;
	char *p = line;
	while (*p && *p != ' ')
		p++;   /* skip the path */
	while (*p && argc < INIT_MAX_ARGS) {
		while (*p == ' ')
			*p++ = '\0';
		if (!*p)
			break;
		argv[argc++] = p;
		while (*p && *p != ' ')
			p++;
	}
	return argc;
}

static void start_init(void)
{
	if (boot_info.module_count == 0)
		panic("no boot modules: nothing to run (give QEMU -initrd)");
	struct boot_module *m = &boot_info.modules[0];
	static char line[BOOT_MODULE_CMDLINE];
	static const char *argv[INIT_MAX_ARGS];
	static const char *const envp[] = { "HOME=/", "TERM=vt100", "PATH=/bin" };
	strlcpy(line, m->cmdline, sizeof(line));
	int argc = split_cmdline(line, m->name, argv);
	/* The first process holds every power; it hands out less. */
	struct spawn_powers all = { .may_serve = true, .may_manage = true };
	memset(all.rights.call, 0xff, sizeof(all.rights.call));
	int pid = proc_spawn(m->name, argv, argc, envp, ARRAY_SIZE(envp), MYRMEX_PRIO_DEFAULT,
	                     &all, NULL);
	if (pid < 0)
		panic("cannot start init '%s': error %d", m->name, pid);
	KASSERT(pid == 1);
}

struct spinlock kernel_lock = SPINLOCK_INIT("kernel");

void kmain(uint64_t magic, uint64_t info)
{
	kernel_lock_take();   /* the boot CPU runs kernel code from here on */
	arch_console_init();
	printk("\nMyrmex microkernel (" ARCH_NAME ") booting\n");
	arch_boot_info(magic, info, &boot_info);
	pmm_init(&boot_info);
	arch_cpu_init();
	arch_paging_init(pmm_max_phys());
	vm_init();
	time_init();
	personality_init();
	sched_init();
	device_init();
	arch_timer_start(SCHED_HZ);
	ipc_fast_enabled = !boot_option("ipc_fast=off");
	if (!ipc_fast_enabled)
		printk("boot: the IPC fast path is off (ipc_fast=off)\n");
	printk("boot: %u modules:", boot_info.module_count);
	for (unsigned i = 0; i < boot_info.module_count; i++)
		printk(" %s", boot_info.modules[i].name);
	printk("\n");
	start_init();
	sched_idle_loop();
}
