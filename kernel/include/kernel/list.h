/*
 * Intrusive circular doubly-linked lists. A list head is a node whose next and
 * prev point to itself when empty. Used for run queues, wait queues, process
 * and thread lists. Pure code: also compiled into the host unit tests.
 */
#ifndef KERNEL_LIST_H
#define KERNEL_LIST_H

#include <stdbool.h>
#include <stddef.h>

struct list_node {
	struct list_node *next, *prev;
};

#define LIST_INIT(name) { &(name), &(name) }

static inline void list_init(struct list_node *head)
{
	head->next = head->prev = head;
}

static inline bool list_empty(const struct list_node *head)
{
	return head->next == head;
}

/* A node that is not on any list points to itself (after list_init or list_remove). */
static inline bool list_linked(const struct list_node *node)
{
	return node->next != node;
}

static inline void list_insert_between(struct list_node *node, struct list_node *prev,
                                       struct list_node *next)
{
	node->prev = prev;
	node->next = next;
	prev->next = node;
	next->prev = node;
}

static inline void list_push_back(struct list_node *head, struct list_node *node)
{
	list_insert_between(node, head->prev, head);
}

static inline void list_push_front(struct list_node *head, struct list_node *node)
{
	list_insert_between(node, head, head->next);
}

/* Inserts node just before pos (pos may be the head: then it appends). */
static inline void list_insert_before(struct list_node *pos, struct list_node *node)
{
	list_insert_between(node, pos->prev, pos);
}

static inline void list_remove(struct list_node *node)
{
	node->prev->next = node->next;
	node->next->prev = node->prev;
	node->next = node->prev = node;
}

static inline struct list_node *list_pop_front(struct list_node *head)
{
	struct list_node *n = head->next;
	if (n == head)
		return NULL;
	list_remove(n);
	return n;
}

#define list_for_each(pos, head) \
	for ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)

/* Safe against removal of pos inside the loop body. */
#define list_for_each_safe(pos, tmp, head) \
	for ((pos) = (head)->next, (tmp) = (pos)->next; (pos) != (head); \
	     (pos) = (tmp), (tmp) = (pos)->next)

#endif
