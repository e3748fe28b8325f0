# fscmd.mk - paper 003's figure 2 driven by make (bench/posix/fscmd.c's last
# command): the same commands as fscmd.c's list, as rules, into the folder
# W, run with `make -j4` so that the ones that need only the copy (ls, find,
# grep, tar) run together. tools/bench_fsconf.py puts it beside the programs.
SRC ?= /bench/src
W ?= /w/make

all: $(W)/ls.out $(W)/wc.out $(W)/sort.out $(W)/sed.out $(W)/src.tar.gz

$(W)/copied:
	mkdir -p $(W) && cp -r $(SRC) $(W)/src && touch $@

$(W)/ls.out: $(W)/copied
	ls -lR $(W)/src > $@

$(W)/find.out: $(W)/copied
	find $(W)/src -name '*.[ch]' > $@

$(W)/grep.out: $(W)/copied
	grep -rn if $(W)/src > $@

$(W)/wc.out: $(W)/find.out
	xargs wc < $(W)/find.out > $@

$(W)/sort.out: $(W)/grep.out
	sort $(W)/grep.out > $@

$(W)/sed.out: $(W)/grep.out
	sed -e 's/if/IF/g' $(W)/grep.out > $@

$(W)/src.tar: $(W)/copied
	tar -cf $@ -C $(W) src

$(W)/src.tar.gz: $(W)/src.tar
	gzip -c $(W)/src.tar > $@
