/*
 * procstat.h - the aggregate "cpu" line of /proc/stat (proc(5)), read in
 * one place: user, nice, system, idle, iowait, irq, softirq, steal,
 * guest, guest_nice, in USER_HZ ticks.  Guest time is already counted in
 * user and nice, so the first eight fields are the total.
 */
#ifndef MEMSCALE_CORE_PROCSTAT_H
#define MEMSCALE_CORE_PROCSTAT_H

#include <stdbool.h>

enum { PROC_CPU_USER, PROC_CPU_NICE, PROC_CPU_SYSTEM, PROC_CPU_IDLE,
       PROC_CPU_IOWAIT, PROC_CPU_IRQ, PROC_CPU_SOFTIRQ, PROC_CPU_STEAL,
       PROC_CPU_GUEST, PROC_CPU_GUEST_NICE, PROC_CPU_NR };

struct proc_cpu {
	unsigned long long v[PROC_CPU_NR]; /* fields not read stay 0 */
	int n;                             /* fields read (older kernels: fewer) */
};

/* Reads the line; false when /proc/stat cannot be read or parsed. */
bool proc_stat_cpu(struct proc_cpu *c);
/* user + nice + system + idle + iowait + irq + softirq + steal */
unsigned long long proc_cpu_total(const struct proc_cpu *c);

#endif
