#include "config.h"
#include "unit.h"
static void t_ok(void **s){(void)s;}
int main(void){const struct CMUnitTest t[]={cmocka_unit_test(t_ok)};return cmocka_run_group_tests(t,NULL,NULL);}
