/*
 * perft.c -- a C program of a library user, built by tests/install.sh and tests/deb.sh against
 * the installed header and shared library through pkg-config: International perft 4 from the
 * start (4,265, tests/perft/international.drop.perft).
 */
#include <condraughts.h>
#include <stdio.h>

int main(void)
{
    cd_position p;
    cd_position_start(&p, cd_rules_find("international"));
    printf("%llu\n", (unsigned long long)cd_perft(&p, 4));
    return 0;
}
