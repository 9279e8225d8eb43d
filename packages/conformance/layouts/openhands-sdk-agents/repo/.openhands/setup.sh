#!/bin/sh
echo corpus setup
