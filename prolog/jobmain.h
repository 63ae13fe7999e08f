/* jobmain.h - the shared main of roce-prolog and roce-epilog. */
#ifndef ROCE_JOBMAIN_H
#define ROCE_JOBMAIN_H
enum roce_job_main_kind { ROCE_JOB_MAIN_PROLOG, ROCE_JOB_MAIN_EPILOG };
int roce_job_main(int argc, char **argv, enum roce_job_main_kind kind);
#endif
