/* exec/topology.c — what the machine is, read once.
 *
 * Guarantees: weft_topology_get() never fails and never returns NULL. Every field is filled
 * from hwloc when hwloc can load the topology, completed (and, when hwloc fails, replaced) by
 * sysconf, /proc/cpuinfo and /sys, so `cores`, `pus` and `cache_line` are always at least 1
 * and `total_memory` is the kernel's MemTotal. The hwloc topology stays loaded for the life
 * of the process so that workers can be pinned to the cpuset of a core. The machine is what
 * the process's CPU binding allows (load()): cores outside it are neither counted nor pinned to.
 *
 * NUMA: numa_nodes counts the nodes that hold cores; core_node maps each core (in the order
 * pinning numbers them) to one, so that the pool can group its workers per node
 * (exec/numa.h). With one node the arrays stay NULL.
 *
 * WEFT_HWLOC_SYNTHETIC: the shape comes from hwloc_topology_set_synthetic instead of the
 * machine (a description hwloc refuses is logged under WEFT_LOG=info and the machine is read).
 * Cache sizes the description leaves out, the CPU's name, its clock and total memory are still
 * this machine's; pinning is skipped (weft_topology_pin_current_thread).
 */
#define _GNU_SOURCE
#include "exec/topology.h"

#include <ctype.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/log.h"

static struct weft_topology topo;
static pthread_once_t topo_once = PTHREAD_ONCE_INIT;

/* Kept for pinning: the loaded topology and one cpuset per core (NULL when hwloc failed). */
static hwloc_topology_t hw;
static hwloc_bitmap_t *core_sets;
static unsigned num_core_sets;
/* The LLC domain of each OS CPU number (NULL: all in domain 0). */
static unsigned char *cpu_domain;
static unsigned num_cpu_domain;

/* Removes leading and trailing white space in place (CPU model strings are padded). */
static void trim(char *s)
{
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    size_t i = 0;
    while (s[i] && isspace((unsigned char)s[i]))
        i++;
    if (i)
        memmove(s, s + i, n - i + 1);
}

/* The value of the first "key : value" line of /proc/cpuinfo whose key is `key`. */
static bool cpuinfo_field(const char *key, char *out, size_t out_size)
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return false;
    char line[512];
    bool found = false;
    size_t klen = strlen(key);
    while (!found && fgets(line, sizeof line, f)) {
        if (strncmp(line, key, klen) != 0)
            continue;
        char *colon = strchr(line, ':');
        if (!colon)
            continue;
        /* the key must be followed only by blanks up to the colon ("cpu MHz" vs "cpu MHz x") */
        bool key_only = true;
        for (char *p = line + klen; p < colon; p++)
            if (!isspace((unsigned char)*p))
                key_only = false;
        if (!key_only)
            continue;
        snprintf(out, out_size, "%s", colon + 1);
        trim(out);
        found = out[0] != '\0';
    }
    fclose(f);
    return found;
}

/* Maximum clock in MHz: cpufreq's cpuinfo_max_freq when the kernel exposes it (the real
 * maximum, boost included), else the largest "cpu MHz" of /proc/cpuinfo (the current clock,
 * which is all a virtual machine tells). 0 when neither exists. */
static double read_max_clock_mhz(void)
{
    FILE *f = fopen("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", "r");
    if (f) {
        unsigned long khz = 0;
        int ok = fscanf(f, "%lu", &khz);
        fclose(f);
        if (ok == 1 && khz > 0)
            return (double)khz / 1000.0;
    }
    f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return 0;
    double best = 0;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        double mhz;
        if (sscanf(line, "cpu MHz : %lf", &mhz) == 1 && mhz > best)
            best = mhz;
    }
    fclose(f);
    return best;
}

static uint64_t read_sys_u64(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0;
    fclose(f);
    return v;
}

/* A sysfs cache size such as "32K" or "1024K" in bytes; 0 when absent. */
static uint64_t read_sys_size(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned long long v = 0;
    char unit = 0;
    int n = fscanf(f, "%llu%c", &v, &unit);
    fclose(f);
    if (n < 1)
        return 0;
    if (n == 2 && (unit == 'K' || unit == 'k'))
        v *= 1024;
    else if (n == 2 && (unit == 'M' || unit == 'm'))
        v *= 1024 * 1024;
    return v;
}

/* Completes unknown cache fields from the kernel's description of cpu0's caches. */
static void read_sysfs_caches(struct weft_topology *t)
{
    for (int i = 0; i < 16; i++) {
        char path[128], type[32] = "";
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/type", i);
        FILE *f = fopen(path, "r");
        if (!f)
            break;
        int ok = fscanf(f, "%31s", type);
        fclose(f);
        if (ok != 1 || !strcmp(type, "Instruction"))
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        uint64_t level = read_sys_u64(path);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        uint64_t size = read_sys_size(path);
        snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/coherency_line_size", i);
        uint64_t line = read_sys_u64(path);
        uint64_t *slot = level == 1 ? &t->l1d_size : level == 2 ? &t->l2_size : level == 3 ? &t->l3_size : NULL;
        if (slot && *slot == 0)
            *slot = size;
        if (level == 1 && t->cache_line == 0 && line > 0)
            t->cache_line = (unsigned)line;
    }
}

/* The instances of the deepest data cache hwloc reports (L3, else L2) and how many cores the
 * largest covers; with `map`, also which instance covers each OS CPU number (*map, *map_len).
 * At most 255 domains are told apart (more count as the 255th). */
static void read_llc_domains(hwloc_topology_t hw, struct weft_topology *t, unsigned char **map,
                             unsigned *map_len)
{
    static const hwloc_obj_type_t llc[] = {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE};
    for (size_t l = 0; l < 2; l++) {
        int n = hwloc_get_nbobjs_by_type(hw, llc[l]);
        if (n <= 0)
            continue;
        int last = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
        unsigned max_os = 0;
        for (int i = 0; i < last; i++) {
            hwloc_obj_t pu = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PU, (unsigned)i);
            if (pu && pu->os_index + 1 > max_os)
                max_os = pu->os_index + 1;
        }
        unsigned char *domain = NULL;
        if (map) {
            domain = calloc(max_os ? max_os : 1, 1);
            if (!domain)
                return;
            *map = domain;
            *map_len = max_os;
        }
        t->llc_domains = (unsigned)(n < 255 ? n : 255);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t c = hwloc_get_obj_by_type(hw, llc[l], (unsigned)i);
            if (!c || !c->cpuset)
                continue;
            int cores = hwloc_get_nbobjs_inside_cpuset_by_type(hw, c->cpuset, HWLOC_OBJ_CORE);
            if (cores <= 0)
                cores = hwloc_get_nbobjs_inside_cpuset_by_type(hw, c->cpuset, HWLOC_OBJ_PU);
            if (cores > 0 && (unsigned)cores > t->llc_domain_cores)
                t->llc_domain_cores = (unsigned)cores;
            if (!domain)
                continue;
            unsigned cpu;
            hwloc_bitmap_foreach_begin(cpu, c->cpuset)
            {
                if (cpu < max_os)
                    domain[cpu] = (unsigned char)(i < 255 ? i : 254);
            }
            hwloc_bitmap_foreach_end();
        }
        return;
    }
}

/* The NUMA nodes that hold the pinning units (`units` objects of type `unit`): each unit goes
 * to the first node, in hwloc's logical order, whose CPUs include its first CPU (a core is
 * under one node on every machine we know; where memory-only nodes share CPUs with a DRAM node,
 * as HBM in flat mode, the first listed wins). Nodes that get no unit are left out and the
 * others numbered in order. Leaves the fields at one node when hwloc shows fewer than two. */
static void read_numa_nodes(hwloc_topology_t hw, struct weft_topology *t, hwloc_obj_type_t unit, int units)
{
    int n = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_NUMANODE);
    if (n < 2 || units < 1)
        return;
    unsigned *core_node = calloc((size_t)units, sizeof *core_node);
    int *compact = malloc((size_t)n * sizeof *compact);       /* hwloc node -> ours, -1: none */
    unsigned *package = calloc((size_t)n, sizeof *package);
    uint64_t *memory = calloc((size_t)n, sizeof *memory);
    if (!core_node || !compact || !package || !memory)
        goto fail;
    for (int i = 0; i < n; i++)
        compact[i] = -1;
    unsigned used = 0;
    for (int u = 0; u < units; u++) {
        hwloc_obj_t o = hwloc_get_obj_by_type(hw, unit, (unsigned)u);
        int cpu = o && o->cpuset ? hwloc_bitmap_first(o->cpuset) : -1;
        int found = -1;
        for (int i = 0; cpu >= 0 && i < n && found < 0; i++) {
            hwloc_obj_t node = hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, (unsigned)i);
            if (node && node->cpuset && hwloc_bitmap_isset(node->cpuset, (unsigned)cpu))
                found = i;
        }
        if (found < 0)
            found = 0;   /* a core hwloc puts under no node: count it with the first */
        if (compact[found] < 0) {
            hwloc_obj_t node = hwloc_get_obj_by_type(hw, HWLOC_OBJ_NUMANODE, (unsigned)found);
            hwloc_obj_t pkg = o ? hwloc_get_ancestor_obj_by_type(hw, HWLOC_OBJ_PACKAGE, o) : NULL;
            package[used] = pkg ? pkg->logical_index : 0;
            memory[used] = node && node->attr ? node->attr->numanode.local_memory : 0;
            compact[found] = (int)used++;
        }
        core_node[u] = (unsigned)compact[found];
    }
    free(compact);
    if (used < 2)
        goto fail_freed;
    t->numa_nodes = used;
    t->core_node = core_node;
    t->node_package = package;
    t->node_memory = memory;
    return;
fail:
    free(compact);
fail_freed:
    free(core_node);
    free(package);
    free(memory);
}

/* The cache affinity domains of the pinning units (`units` objects of type `unit`): for L4 .. L1
 * (data or unified), the instance each unit sits under, in hwloc's logical order, renumbered
 * densely in the order the units meet them. A level no unit sits under stays NULL. The NUMA
 * level is read_numa_nodes's core_node. */
static void read_affinity_domains(hwloc_topology_t hw, struct weft_topology *t, hwloc_obj_type_t unit, int units)
{
    static const hwloc_obj_type_t type[WEFT_AFFINITY_LEVELS] = {
        [WEFT_AFFINITY_L4] = HWLOC_OBJ_L4CACHE, [WEFT_AFFINITY_L3] = HWLOC_OBJ_L3CACHE,
        [WEFT_AFFINITY_L2] = HWLOC_OBJ_L2CACHE, [WEFT_AFFINITY_L1] = HWLOC_OBJ_L1CACHE};
    if (t->core_node) {
        t->core_domain[WEFT_AFFINITY_NUMA] = t->core_node;
        t->core_domains[WEFT_AFFINITY_NUMA] = t->numa_nodes;
    }
    if (units < 1)
        return;
    for (int level = WEFT_AFFINITY_L4; level < WEFT_AFFINITY_LEVELS; level++) {
        int n = hwloc_get_nbobjs_by_type(hw, type[level]);
        if (n <= 0)
            continue;
        unsigned *domain = calloc((size_t)units, sizeof *domain);
        int *dense = malloc((size_t)n * sizeof *dense);   /* hwloc instance -> ours, -1: none */
        if (!domain || !dense) {
            free(domain);
            free(dense);
            continue;
        }
        for (int i = 0; i < n; i++)
            dense[i] = -1;
        unsigned used = 0;
        for (int u = 0; u < units; u++) {
            hwloc_obj_t o = hwloc_get_obj_by_type(hw, unit, (unsigned)u);
            hwloc_obj_t c = o ? hwloc_get_ancestor_obj_by_type(hw, type[level], o) : NULL;
            unsigned idx = c && c->logical_index < (unsigned)n ? c->logical_index : 0;
            if (dense[idx] < 0)
                dense[idx] = (int)used++;
            domain[u] = (unsigned)dense[idx];
        }
        free(dense);
        t->core_domain[level] = domain;
        t->core_domains[level] = used;
    }
}

/* Fills what hwloc could tell about `t` from the loaded `hw`: everything but the pinning sets
 * and the CPU -> LLC domain map (topology_init keeps those for the process's topology). */
static void describe(hwloc_topology_t hw, struct weft_topology *t)
{
    int cores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
    int pus = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_PU);
    if (pus > 0)
        t->pus = (unsigned)pus;
    /* Pinning granularity is the core; without cores we pin to PUs. */
    hwloc_obj_type_t unit = cores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    int units = cores > 0 ? cores : pus;
    if (units > 0)
        t->cores = (unsigned)units;
    t->synthetic = !hwloc_topology_is_thissystem(hw);

    /* Caches: the first instance of each level describes them all on the machines we target
     * (symmetric cores). L1 instruction caches are skipped. */
    static const hwloc_obj_type_t levels[] = {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE};
    uint64_t *sizes[] = {&t->l1d_size, &t->l2_size, &t->l3_size};
    for (size_t l = 0; l < 3; l++) {
        int n = hwloc_get_nbobjs_by_type(hw, levels[l]);
        for (int i = 0; i < n; i++) {
            hwloc_obj_t c = hwloc_get_obj_by_type(hw, levels[l], (unsigned)i);
            if (!c || !c->attr || c->attr->cache.type == HWLOC_OBJ_CACHE_INSTRUCTION)
                continue;
            *sizes[l] = c->attr->cache.size;
            if (c->attr->cache.linesize > 0 && t->cache_line == 0)
                t->cache_line = c->attr->cache.linesize;
            break;
        }
    }

    read_numa_nodes(hw, t, unit, units);
    read_affinity_domains(hw, t, unit, units);

    hwloc_obj_t root = hwloc_get_root_obj(hw);
    if (root)
        t->total_memory = root->total_memory;

    hwloc_obj_t pkg = hwloc_get_obj_by_type(hw, HWLOC_OBJ_PACKAGE, 0);
    const char *model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
    if (!model && root)
        model = hwloc_obj_get_info_by_name(root, "CPUModel");
    if (model && *model) {
        snprintf(t->cpu_name, sizeof t->cpu_name, "%s", model);
        trim(t->cpu_name);
    }
}

/* Loads a topology: the synthetic one `synthetic` describes, or (NULL) the machine's, as far as
 * this process may run on it. NULL when hwloc cannot.
 *
 * The machine's is restricted to the process's CPU binding (taskset, numactl, mpirun
 * --bind-to, a batch system's binding; cgroup cpusets hwloc leaves out anyway): the cores
 * outside it are not this process's to use. Counted and pinned to, they let Weft's workers
 * escape the binding onto other processes' cores (two MPI ranks bound to cores 0 and 1 both
 * put their worker on core 1). So the default thread count, the compute units and the cores
 * workers are pinned to are those the process was given, as OpenMP runtimes count them. */
static hwloc_topology_t load(const char *synthetic)
{
    hwloc_topology_t h;
    if (hwloc_topology_init(&h) != 0)
        return NULL;
#if HWLOC_API_VERSION >= 0x00020100
    if (!synthetic && hwloc_topology_set_flags(h, HWLOC_TOPOLOGY_FLAG_IS_THISSYSTEM |
                                                      HWLOC_TOPOLOGY_FLAG_RESTRICT_TO_CPUBINDING) != 0)
        weft_log(WEFT_LOG_INFO, "hwloc cannot restrict the topology to the process's CPU binding; "
                 "using every core of the machine");
#endif
    if ((synthetic && hwloc_topology_set_synthetic(h, synthetic) != 0) || hwloc_topology_load(h) != 0) {
        hwloc_topology_destroy(h);
        return NULL;
    }
    return h;
}

/* The process's topology: WEFT_HWLOC_SYNTHETIC's when it names one hwloc accepts, else the
 * machine's. Keeps it in `hw`, with a cpuset per core for pinning. Returns false when hwloc
 * cannot load either. */
static bool read_hwloc(void)
{
    const char *synthetic = getenv("WEFT_HWLOC_SYNTHETIC");
    if (synthetic && *synthetic) {
        hw = load(synthetic);
        if (!hw)
            weft_log(WEFT_LOG_INFO, "WEFT_HWLOC_SYNTHETIC='%s' is not a synthetic topology hwloc accepts; "
                     "using the machine's", synthetic);
    }
    if (!hw)
        hw = load(NULL);
    if (!hw)
        return false;
    describe(hw, &topo);
    int cores = hwloc_get_nbobjs_by_type(hw, HWLOC_OBJ_CORE);
    hwloc_obj_type_t unit = cores > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
    if (topo.cores > 0) {
        core_sets = calloc(topo.cores, sizeof *core_sets);
        if (core_sets) {
            for (unsigned i = 0; i < topo.cores; i++) {
                hwloc_obj_t o = hwloc_get_obj_by_type(hw, unit, i);
                core_sets[i] = o && o->cpuset ? hwloc_bitmap_dup(o->cpuset) : NULL;
            }
            num_core_sets = topo.cores;
        }
    }
    read_llc_domains(hw, &topo, &cpu_domain, &num_cpu_domain);
    return true;
}

/* Completes what hwloc left unknown in `t` with what the kernel tells directly. */
static void complete(struct weft_topology *t)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (t->pus == 0)
        t->pus = online > 0 ? (unsigned)online : 1;
    if (t->cores == 0)
        t->cores = t->pus;

    if (t->numa_nodes == 0)
        t->numa_nodes = 1;
    if (t->llc_domains == 0 || t->llc_domain_cores == 0) {
        t->llc_domains = 1;
        t->llc_domain_cores = t->cores;
    }

    read_sysfs_caches(t);
    /* glibc's answers come last: it derives them from cpuid, and on virtual AMD machines its
     * L3 figure was seen ten times too large (it scales by the threads sharing the cache). */
    if (t->cache_line == 0) {
        long line = sysconf(_SC_LEVEL1_DCACHE_LINESIZE);
        t->cache_line = line > 0 ? (unsigned)line : 64;
    }
    if (t->l1d_size == 0) {
        long v = sysconf(_SC_LEVEL1_DCACHE_SIZE);
        t->l1d_size = v > 0 ? (uint64_t)v : 0;
    }
    if (t->l2_size == 0) {
        long v = sysconf(_SC_LEVEL2_CACHE_SIZE);
        t->l2_size = v > 0 ? (uint64_t)v : 0;
    }
    if (t->l3_size == 0) {
        long v = sysconf(_SC_LEVEL3_CACHE_SIZE);
        t->l3_size = v > 0 ? (uint64_t)v : 0;
    }

    /* The kernel's MemTotal is what a process can use. hwloc sums the NUMA nodes' memory,
     * which virtual machines sometimes under-report (seen here: 6 GB of nodes, 24 GB of
     * MemTotal), so hwloc's figure is only the fallback. */
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0)
        t->total_memory = (uint64_t)pages * (uint64_t)page;
    if (t->total_memory == 0)
        t->total_memory = 1ull << 30; /* nothing answered: a modest, safe guess */

    t->max_clock_mhz = read_max_clock_mhz();

    if (t->cpu_name[0] == '\0' && !cpuinfo_field("model name", t->cpu_name, sizeof t->cpu_name))
        snprintf(t->cpu_name, sizeof t->cpu_name, "Unknown CPU");
}

static void topology_init(void)
{
    read_hwloc();
    complete(&topo);
}

struct weft_topology *weft_topology_new_synthetic(const char *description)
{
    if (!description)
        return NULL;
    hwloc_topology_t h = load(description);
    if (!h)
        return NULL;
    struct weft_topology *t = calloc(1, sizeof *t);
    if (t) {
        describe(h, t);
        read_llc_domains(h, t, NULL, NULL);
        complete(t);
    }
    hwloc_topology_destroy(h);
    return t;
}

void weft_topology_free(struct weft_topology *t)
{
    if (!t || t == &topo)
        return;
    free((void *)t->core_node);
    free((void *)t->node_package);
    free((void *)t->node_memory);
    for (int level = WEFT_AFFINITY_L4; level < WEFT_AFFINITY_LEVELS; level++)
        free((void *)t->core_domain[level]);
    free(t);
}

const struct weft_topology *weft_topology_get(void)
{
    pthread_once(&topo_once, topology_init);
    return &topo;
}

unsigned weft_topology_current_llc_domain(void)
{
    weft_topology_get();
    int cpu = sched_getcpu();
    return cpu_domain && cpu >= 0 && (unsigned)cpu < num_cpu_domain ? cpu_domain[cpu] : 0;
}

bool weft_topology_pin_current_thread(unsigned index)
{
    const struct weft_topology *t = weft_topology_get();
    /* A synthetic shape's CPU numbers are not this machine's (64 of them on a 2-core VM), and
     * hwloc's synthetic backend "binds" by doing nothing. Pinning is skipped rather than mapped
     * onto real CPUs: the shape is there to test decisions, and threads left to the scheduler
     * spread over the real CPUs better than 64 threads crowded onto their modulo would. */
    if (t->synthetic)
        return false;
    if (hw && num_core_sets) {
        hwloc_bitmap_t set = core_sets[index % num_core_sets];
        return set && hwloc_set_cpubind(hw, set, HWLOC_CPUBIND_THREAD) == 0;
    }
    /* No hwloc: pin to the index-th CPU the process may run on. */
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
        return false;
    unsigned n = (unsigned)CPU_COUNT(&allowed);
    if (n == 0)
        return false;
    unsigned want = index % (t->cores < n ? t->cores : n), seen = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed))
            continue;
        if (seen++ == want) {
            cpu_set_t one;
            CPU_ZERO(&one);
            CPU_SET(cpu, &one);
            return pthread_setaffinity_np(pthread_self(), sizeof one, &one) == 0;
        }
    }
    return false;
}

/* A set of CPUs: a pool's cores, or a thread's binding as bind_current_thread found it. */
struct weft_cpuset {
    cpu_set_t set;
};

struct weft_cpuset *weft_topology_cpuset(const unsigned *cores, unsigned n)
{
    const struct weft_topology *t = weft_topology_get();
    if (t->synthetic || !hw || !num_core_sets || n == 0)
        return NULL;
    struct weft_cpuset *out = malloc(sizeof *out);
    if (!out)
        return NULL;
    CPU_ZERO(&out->set);
    for (unsigned i = 0; i < n; i++) {
        hwloc_bitmap_t set = core_sets[cores[i] % num_core_sets];
        unsigned cpu;
        if (!set) {
            free(out);
            return NULL;
        }
        hwloc_bitmap_foreach_begin(cpu, set)
        {
            if (cpu < CPU_SETSIZE)
                CPU_SET(cpu, &out->set);
        }
        hwloc_bitmap_foreach_end();
    }
    return out;
}

void weft_cpuset_free(struct weft_cpuset *set)
{
    free(set);
}

bool weft_cpuset_has_current_cpu(const struct weft_cpuset *set)
{
    int cpu = sched_getcpu();   /* the vDSO's: no system call */
    return set && cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &set->set);
}

bool weft_topology_bind_current_thread(const struct weft_cpuset *set, struct weft_cpuset **saved)
{
    if (saved)
        *saved = NULL;
    if (!set)
        return false;
    struct weft_cpuset *old = NULL;
    if (saved) {
        old = malloc(sizeof *old);
        if (!old || pthread_getaffinity_np(pthread_self(), sizeof old->set, &old->set) != 0) {
            free(old);
            return false;
        }
    }
    if (pthread_setaffinity_np(pthread_self(), sizeof set->set, &set->set) != 0) {
        free(old);
        return false;
    }
    if (saved)
        *saved = old;
    return true;
}

void weft_topology_restore_binding(struct weft_cpuset *saved)
{
    if (!saved)
        return;
    pthread_setaffinity_np(pthread_self(), sizeof saved->set, &saved->set);
    free(saved);
}
