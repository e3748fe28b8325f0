/*
 * stage_b: the middle stage of the three-stage demo (../stage_a/stage.h).
 * Serves coreid 22 and passes every call on to stage_c (coreid 23) with
 * callasync.
 */
#include "../stage_a/stage.h"

int main(void)
{
	return stage_forward_main("stage_b", STAGE_B_COREID, STAGE_C_COREID);
}
