/*
 * no_treg_combine: a GCC plugin for Debian's sh4-linux-gnu-gcc 12 that
 * takes the SH back end's sh_treg_combine passes out of the pipeline
 * (docs/sh4.md, "How the port is optimized"). The pass, run after register
 * allocation, took the reload of a spilled bool from its stack slot for a
 * store of the T bit and deleted the test before the branch, which then
 * used whatever T the previous compare left (tests/sh4/t_codegen.c shows
 * it). The root of it: the pass declares the predicates it asks
 * (t_reg_operand, negt_reg_operand) as returning int, GCC 12 defines them
 * returning bool, and on an x86-64 host a bool result defines only the low
 * byte of the return register, so a "no" with leftovers in the upper bytes
 * reads as "yes". Each instance is replaced by a pass that does nothing,
 * so the compiler emits the test it would emit on any other target.
 *
 * The back end registers its passes while it processes the options, after
 * plugins are initialized, so they cannot be named at PLUGIN_PASS_MANAGER_
 * SETUP time (and -fdisable-rtl-... is refused for the same reason). The
 * replacement is registered at PLUGIN_START_UNIT: the passes exist by then
 * and none has run. A pass that is not found is a fatal error from GCC
 * itself, so a compiler whose back end changed fails the build instead of
 * compiling with the pass still in.
 *
 * Built with the host g++ against the plugin headers of Debian's
 * gcc-12-plugin-dev-sh4-linux-gnu (mk/arch-sh4.mk); loaded with -fplugin=.
 */
#include "gcc-plugin.h"
#include "plugin-version.h"
#include "tree-pass.h"
#include "context.h"

int plugin_is_GPL_compatible;

namespace {

/* The SH back end's instances, by the names -fdump-passes shows without
 * their "rtl-" prefix: after split1 (before register allocation) and after
 * split3 (after it). */
const struct {
	const char *pass; /* the back end's */
	const char *noop; /* ours in its place ("rtl-treg_combine2_removed1" in dumps) */
} replaced[] = {
	{ "sh_treg_combine2", "treg_combine2_removed" },
	{ "sh_treg_combine3", "treg_combine3_removed" },
};

const pass_data noop_pass_data = {
	RTL_PASS,         /* type */
	"treg_combine_removed", /* name, set per instance */
	OPTGROUP_NONE,    /* optinfo_flags */
	TV_NONE,          /* tv_id */
	0,                /* properties_required */
	0,                /* properties_provided */
	0,                /* properties_destroyed */
	0,                /* todo_flags_start */
	0,                /* todo_flags_finish */
};

/* Stands where an sh_treg_combine instance stood; its gate is closed, so
 * it never runs and touches no function. */
class noop_pass : public rtl_opt_pass {
public:
	noop_pass(gcc::context *ctxt, const char *pass_name)
		: rtl_opt_pass(noop_pass_data, ctxt)
	{
		name = pass_name;
	}
	bool gate(function *) final override { return false; }
	unsigned int execute(function *) final override { return 0; }
	opt_pass *clone() final override { return new noop_pass(m_ctxt, name); }
};

/* PLUGIN_START_UNIT: the back end's passes exist; replace every instance of
 * each (instance number 0). The pass objects live as long as cc1. */
void replace_passes(void *, void *)
{
	static bool done;
	if (done)
		return;
	done = true;
	for (unsigned i = 0; i < sizeof(replaced) / sizeof(replaced[0]); i++) {
		register_pass_info info;
		info.pass = new noop_pass(g, replaced[i].noop);
		info.reference_pass_name = replaced[i].pass;
		info.ref_pass_instance_number = 0;
		info.pos_op = PASS_POS_REPLACE;
		register_pass(&info);
	}
}

} // namespace

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
	/* Only the compiler whose headers built this plugin: the pass manager's
	 * classes are not a stable interface. */
	if (!plugin_default_version_check(version, &gcc_version)) {
		fprintf(stderr, "%s: built for GCC %s, loaded by GCC %s\n", info->base_name,
		        gcc_version.basever, version->basever);
		return 1;
	}
	static struct plugin_info about = {
		"1",
		"Replaces the SH back end's sh_treg_combine passes by passes that do nothing",
	};
	register_callback(info->base_name, PLUGIN_INFO, nullptr, &about);
	register_callback(info->base_name, PLUGIN_START_UNIT, replace_passes, nullptr);
	return 0;
}
