/*
 * stage_a: the first stage of the three-stage demo (stage.h). Serves coreid
 * 21 and passes every call on to stage_b (coreid 22) with callasync.
 */
#include "stage.h"

int main(void)
{
	return stage_forward_main("stage_a", STAGE_A_COREID, STAGE_B_COREID);
}
