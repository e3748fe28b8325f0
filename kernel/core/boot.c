/*
 * The boot information and the boot modules, which stand in for a file
 * system until the file manager exists: programs are started by module name.
 */
#include <kernel/boot.h>
#include <kernel/string.h>

struct boot_info boot_info;

const struct boot_module *boot_find_module(const char *name)
{
	for (unsigned i = 0; i < boot_info.module_count; i++)
		if (strcmp(boot_info.modules[i].name, name) == 0)
			return &boot_info.modules[i];
	return NULL;
}

bool boot_option(const char *option)
{
	size_t n = strlen(option);
	for (const char *s = boot_info.cmdline; *s;) {
		while (*s == ' ')
			s++;
		size_t len = 0;
		while (s[len] && s[len] != ' ')
			len++;
		if (len == n && memcmp(s, option, n) == 0)
			return true;
		s += len;
	}
	return false;
}
