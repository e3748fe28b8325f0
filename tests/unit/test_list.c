/*
 * Host unit tests of the intrusive circular lists (kernel/include/kernel/list.h,
 * header only): order of push and pop, removal, list_linked, iteration with
 * removal, insertion before a node.
 */
/* unit-sources: */
#define UNIT_SUITE "list"
#include "unit.h"

#include <kernel/list.h>
#include <kernel/types.h>

struct item {
	int value;
	struct list_node link;
};

static struct item items[16];

static void items_init(void)
{
	for (int i = 0; i < 16; i++) {
		items[i].value = i;
		list_init(&items[i].link);
	}
}

static int value_of(struct list_node *n)
{
	return container_of(n, struct item, link)->value;
}

/* Every next/prev pair agrees, walking at most limit nodes. */
static int well_formed(const struct list_node *head, int limit)
{
	const struct list_node *n = head;
	for (int i = 0; i <= limit; i++) {
		if (n->next->prev != n || n->prev->next != n)
			return 0;
		n = n->next;
		if (n == head)
			return 1;
	}
	return 0;
}

/* The list's values front to back as a string of digits ("" if empty),
 * checked against the same walk back to front. */
static const char *contents(struct list_node *head)
{
	static char fwd[64];
	char back[64];
	size_t n = 0, m = 0;
	struct list_node *pos;
	if (!well_formed(head, 60))
		return "(broken)";
	list_for_each(pos, head)
		fwd[n++] = (char)('a' + value_of(pos));
	fwd[n] = '\0';
	for (pos = head->prev; pos != head; pos = pos->prev)
		back[m++] = (char)('a' + value_of(pos));
	if (m != n)
		return "(back walk differs)";
	for (size_t i = 0; i < n; i++)
		if (back[i] != fwd[n - 1 - i])
			return "(back walk differs)";
	return fwd;
}

UNIT_TEST(empty)
{
	struct list_node head;
	list_init(&head);
	CHECK(list_empty(&head));
	CHECK(!list_linked(&head));
	CHECK(list_pop_front(&head) == NULL);
	CHECK_STR(contents(&head), "");
	static struct list_node stat = LIST_INIT(stat);
	CHECK(list_empty(&stat));
	CHECK(list_pop_front(&stat) == NULL);
}

UNIT_TEST(push_back_pops_in_order)
{
	items_init();
	struct list_node head;
	list_init(&head);
	for (int i = 0; i < 5; i++)
		list_push_back(&head, &items[i].link);
	CHECK(!list_empty(&head));
	CHECK_STR(contents(&head), "abcde");
	for (int i = 0; i < 5; i++) {
		struct list_node *n = list_pop_front(&head);
		REQUIRE(n != NULL);
		CHECK_EQ(value_of(n), i);
		CHECK(!list_linked(n));
	}
	CHECK(list_empty(&head));
	CHECK(list_pop_front(&head) == NULL);
}

UNIT_TEST(push_front_reverses)
{
	items_init();
	struct list_node head;
	list_init(&head);
	for (int i = 0; i < 4; i++)
		list_push_front(&head, &items[i].link);
	CHECK_STR(contents(&head), "dcba");
	list_push_back(&head, &items[9].link);
	list_push_front(&head, &items[8].link);
	CHECK_STR(contents(&head), "idcbaj");
	CHECK_EQ(value_of(list_pop_front(&head)), 8);
	CHECK_EQ(value_of(list_pop_front(&head)), 3);
}

UNIT_TEST(remove_from_middle_and_ends)
{
	items_init();
	struct list_node head;
	list_init(&head);
	for (int i = 0; i < 5; i++)
		list_push_back(&head, &items[i].link);
	list_remove(&items[2].link);
	CHECK_STR(contents(&head), "abde");
	list_remove(&items[0].link);                  /* the first */
	CHECK_STR(contents(&head), "bde");
	list_remove(&items[4].link);                  /* the last */
	CHECK_STR(contents(&head), "bd");
	list_remove(&items[1].link);
	list_remove(&items[3].link);
	CHECK(list_empty(&head));
	CHECK_STR(contents(&head), "");
}

UNIT_TEST(linked_state)
{
	items_init();
	struct list_node head;
	list_init(&head);
	struct list_node *n = &items[0].link;
	CHECK(!list_linked(n));                       /* after list_init */
	list_push_back(&head, n);
	CHECK(list_linked(n));
	CHECK(list_linked(&head));                    /* a non-empty head counts as linked */
	list_remove(n);
	CHECK(!list_linked(n));
	CHECK(n->next == n && n->prev == n);
	/* Removing an unlinked node is harmless (it points to itself). */
	list_remove(n);
	CHECK(!list_linked(n));
	CHECK(list_empty(&head));
	/* A removed node can go on another list. */
	struct list_node other;
	list_init(&other);
	list_push_back(&head, n);
	list_remove(n);
	list_push_back(&other, n);
	CHECK(list_empty(&head));
	CHECK_STR(contents(&other), "a");
	list_push_back(&head, &items[1].link);
	CHECK(list_linked(list_pop_front(&other)) == false);
	CHECK_STR(contents(&head), "b");
}

UNIT_TEST(for_each_safe_with_removal)
{
	items_init();
	struct list_node head;
	list_init(&head);
	for (int i = 0; i < 10; i++)
		list_push_back(&head, &items[i].link);
	struct list_node *pos, *tmp;
	int visited = 0;
	list_for_each_safe(pos, tmp, &head) {
		visited++;
		if (value_of(pos) % 2 == 0)
			list_remove(pos);
	}
	CHECK_EQ(visited, 10);
	CHECK_STR(contents(&head), "bdfhj");
	/* Removing every node empties the list. */
	visited = 0;
	list_for_each_safe(pos, tmp, &head) {
		visited++;
		list_remove(pos);
		CHECK(!list_linked(pos));
	}
	CHECK_EQ(visited, 5);
	CHECK(list_empty(&head));
	/* Moving nodes to another list while iterating. */
	struct list_node other;
	list_init(&other);
	for (int i = 0; i < 6; i++)
		list_push_back(&head, &items[i].link);
	list_for_each_safe(pos, tmp, &head) {
		if (value_of(pos) >= 3) {
			list_remove(pos);
			list_push_front(&other, pos);
		}
	}
	CHECK_STR(contents(&head), "abc");
	CHECK_STR(contents(&other), "fed");
}

UNIT_TEST(insert_before)
{
	items_init();
	struct list_node head;
	list_init(&head);
	list_push_back(&head, &items[0].link);
	list_push_back(&head, &items[2].link);
	list_insert_before(&items[2].link, &items[1].link);     /* in the middle */
	CHECK_STR(contents(&head), "abc");
	list_insert_before(&items[0].link, &items[9].link);     /* before the first */
	CHECK_STR(contents(&head), "jabc");
	list_insert_before(&head, &items[5].link);              /* before the head: append */
	CHECK_STR(contents(&head), "jabcf");
	struct list_node empty;
	list_init(&empty);
	list_insert_before(&empty, &items[7].link);             /* into an empty list */
	CHECK_STR(contents(&empty), "h");
	/* Keeping a list sorted, as a priority queue does. */
	struct list_node sorted;
	list_init(&sorted);
	static const int order[] = { 11, 3, 7, 1, 15, 4 };
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		struct list_node *n = &items[order[i]].link, *pos;
		list_remove(n);
		list_for_each(pos, &sorted)
			if (value_of(pos) > value_of(n))
				break;
		list_insert_before(pos, n);
	}
	CHECK_STR(contents(&sorted), "bdehlp");
}
